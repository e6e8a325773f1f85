@testable import PickerServer
import Testing

@Suite struct PersonCookieTests {
    @Test(arguments: [
        (["a=1; assets_picker_person_80=tok.en; b=2"], ["tok.en"]),
        (["assets_picker_person_80=first", "assets_picker_person_80=second"], ["first", "second"]),
        (["assets_picker_person_80=x.y; Path=/; assets_picker_person_80=real.one"], ["x.y", "real.one"]),
        (["x=1", "  assets_picker_person_80=v=w"], ["v=w"]),
        (["assets_picker_person_80="], [""]),
        (["assets_picker_person_8=no; assets_picker_person_800=no"], []),
        (["ASSETS_PICKER_PERSON_80=no;;=x; assets_picker_person_80"], []),
        ([String(repeating: "assets_picker_person_80=n; ", count: 300)], Array(repeating: "n", count: 256)),
        ([], []),
    ] as [([String], [String])])
    func everyCookieOfItsExactNameIsFoundInOrderUpTo256(headers: [String], expected: [String]) {
        #expect(PersonCookie.values(named: "assets_picker_person_80", in: headers).map(String.init) == expected)
        #expect(headers.lazy.compactMap { PersonCookie.value(named: "assets_picker_person_80", in: $0) }.first.map(String.init)
            == expected.first)
    }
}
