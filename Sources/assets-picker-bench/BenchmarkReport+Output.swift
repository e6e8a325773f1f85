import Foundation

extension BenchmarkReport {
    /// Writes the report to standard output: one JSON document (pretty, keys sorted) when
    /// `json`, else the aligned text. Progress goes to standard error, so this is all stdout holds.
    func write(asJSON json: Bool) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(self) + Data("\n".utf8))
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}
