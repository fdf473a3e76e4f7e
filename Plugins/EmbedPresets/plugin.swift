import Foundation
import PackagePlugin

/// Embeds every `Presets/*.json` and `Web/*.js` of the package into the target as Swift
/// source, so the built-in presets work from any directory and the binary can write the
/// web player, while those folders stay their one source of truth.
@main
struct EmbedPresets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        try [
            embed("Presets", extension: "json", as: "builtInPresetFiles", context: context),
            embed("Web", extension: "js", as: "builtInWebFiles", context: context),
        ]
    }

    /// A command that writes the files of `folder` ending in `.fileExtension` as the array
    /// `name`, in a source file named after it.
    private func embed(
        _ folder: String, extension fileExtension: String, as name: String, context: PluginContext
    ) throws -> Command {
        let directory = context.package.directoryURL.appending(path: folder)
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == fileExtension }
        let fileName = name.prefix(1).uppercased() + name.dropFirst() + ".swift"
        let output = context.pluginWorkDirectoryURL.appending(path: fileName)
        // The directory itself is an input too: adding or removing a file changes it,
        // and the embedder lists the directory when it runs.
        return .buildCommand(
            displayName: "Embedding \(folder)/*.\(fileExtension)",
            executable: try context.tool(named: "PresetEmbedder").url,
            arguments: [output.path, directory.path, fileExtension, name],
            inputFiles: [directory] + files,
            outputFiles: [output])
    }
}
