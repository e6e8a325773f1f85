@testable import PickerServer
import Testing

@Suite struct PersonCookieTests {
    @Test(arguments: [
        (["a=1; assets_picker_person_80=tok.en; b=2"], "tok.en"),
        (["assets_picker_person_80=first", "assets_picker_person_80=second"], "first"),
        (["x=1", "  assets_picker_person_80=v=w"], "v=w"),
        (["assets_picker_person_80="], ""),
        (["assets_picker_person_8=no; assets_picker_person_800=no"], nil),
        (["ASSETS_PICKER_PERSON_80=no;;=x; assets_picker_person_80"], nil),
        ([], nil),
    ] as [([String], String?)])
    func theCookieIsFoundByItsExactName(headers: [String], expected: String?) {
        #expect(PersonCookie.value(named: "assets_picker_person_80", in: headers).map(String.init) == expected)
    }
}
