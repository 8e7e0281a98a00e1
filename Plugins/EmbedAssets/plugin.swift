import Foundation
import PackagePlugin

/// Embeds the pages' scripts and style sheets (the `.js` and `.css` files of the target's
/// `Assets` folder) into the build as Swift string literals (`EmbeddedAssets.swift`), so that
/// the static release serves them with no file beside it, and they stay files an editor,
/// `node --check` and `node --test` read.
@main
struct EmbedAssets: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let folder = target.directoryURL.appending(path: "Assets")
    let assets =
      ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil))
      ?? []).filter { ["js", "css"].contains($0.pathExtension) }.sorted { $0.path < $1.path }
    let script = context.package.directoryURL.appending(path: "Plugins/EmbedAssets/embed.sh")
    let source = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(assets.count) page assets",
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: [script.path, source.path] + assets.map(\.path),
        inputFiles: [script] + assets, outputFiles: [source])
    ]
  }
}
