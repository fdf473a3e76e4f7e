import Foundation
import PackagePlugin

/// Embeds every file of the target's `Page/` folder (the studio page) into the target as
/// Swift source, so the binary serves the page from any directory and the folder stays its
/// one source of truth.
@main
struct EmbedPage: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = target.directoryURL.appending(path: "Page")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPageFiles.swift")
        // The directory itself is an input too: adding or removing a file changes it, and the
        // embedder lists the directory when it runs.
        return [
            .buildCommand(
                displayName: "Embedding the studio page",
                executable: try context.tool(named: "PageEmbedder").url,
                arguments: [output.path, directory.path],
                inputFiles: [directory] + files,
                outputFiles: [output])
        ]
    }
}
