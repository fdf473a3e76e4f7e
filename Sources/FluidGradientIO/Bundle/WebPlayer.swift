import FluidGradient
import Foundation

/// The stacked-alpha web player, `Web/fluidgradient-player.js`, embedded at build time so
/// that the binary can write it beside a stacked video (``StackedAlpha``) from any
/// directory. It finds the layout from the file's comment tag,
/// ``StackedAlpha/layoutComment``.
package enum WebPlayer {
    /// The name the player's script goes by in a page: `<script src="fluidgradient-player.js">`.
    package static let fileName = "fluidgradient-player.js"

    /// The script's exact bytes, as in the repository.
    package static var script: [UInt8] {
        let stem = String(fileName.dropLast(".js".count))
        guard let entry = builtInWebFiles.first(where: { $0.name == stem }),
            let data = Data(base64Encoded: entry.base64)
        else { preconditionFailure("the build embeds Web/\(fileName)") }
        return [UInt8](data)
    }
}
