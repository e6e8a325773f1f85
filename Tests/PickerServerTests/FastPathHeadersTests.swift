import NIOHTTP1
@testable import PickerServer
import Testing

@Suite struct FastPathHeadersTests {
    @Test func oneReadingFindsWhatThreeLookUpsWould() {
        let name = "assets_picker_person_80"
        let headers: HTTPHeaders = [
            "COOKIE": "a=1", "If-None-Match": "\"first\"", "cookie": "\(name)=tok.en", "Cookie": "\(name)=later",
            "if-none-match": "\"second\"", "Accept": "image/*",
        ]
        let read = FastPathHeaders(headers, cookieName: name)
        #expect(read.personToken == "tok.en")
        #expect(read.ifNoneMatch == "\"first\"")
        #expect(!read.hasConnection)
        #expect(read.personToken.map(String.init) == PersonCookie.values(named: name, in: headers["cookie"]).first.map(String.init))
        #expect(read.ifNoneMatch == headers.first(name: "if-none-match"))

        for connection in ["Connection", "CONNECTION", "connection"] {
            #expect(FastPathHeaders([connection: "keep-alive"], cookieName: name).hasConnection)
        }
        let none = FastPathHeaders(["Connections": "x", "Cookie2": "\(name)=no", "If-None-Matc": "\"x\""], cookieName: name)
        #expect(!none.hasConnection && none.personToken == nil && none.ifNoneMatch == nil)
    }
}
