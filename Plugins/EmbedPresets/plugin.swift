import Foundation
import PackagePlugin

/// Embeds every `Presets/*.json` of the package into the target as Swift source, so
/// the built-in presets work from any directory while `Presets/` stays their one
/// source of truth.
@main
struct EmbedPresets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "Presets")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInPresetFiles.swift")
        // The directory itself is an input too: adding or removing a preset changes it,
        // and the embedder lists the directory when it runs.
        return [
            .buildCommand(
                displayName: "Embedding presets from Presets/",
                executable: try context.tool(named: "PresetEmbedder").url,
                arguments: [output.path, directory.path],
                inputFiles: [directory] + files,
                outputFiles: [output])
        ]
    }
}
