import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// The web player embedded in the binary is the repository's file, and it looks for the
/// tag the stacked writer puts in the file.
@Suite struct WebPlayerTests {
    static let source = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Web").appendingPathComponent(WebPlayer.fileName)

    @Test func theEmbeddedScriptIsTheRepositorysFile() throws {
        #expect(WebPlayer.script == [UInt8](try Data(contentsOf: Self.source)))
    }

    @Test func theScriptLooksForTheStackedLayoutsTag() {
        let text = String(decoding: WebPlayer.script, as: UTF8.self)
        #expect(text.contains("var LAYOUT_COMMENT = '\(StackedAlpha.layoutComment)';"))
    }
}
