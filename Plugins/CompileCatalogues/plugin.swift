import Foundation
import PackagePlugin

/// Compiles the message catalogues (`po/*.po`) with `msgfmt` into the build directory, and
/// tells the code where they are (`BuiltCatalogues.swift`): a `swift build` in the checkout
/// then finds its translations as an installed copy finds its own.
@main
struct CompileCatalogues: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let po = context.package.directoryURL.appending(path: "po")
    let catalogues =
      ((try? FileManager.default.contentsOfDirectory(at: po, includingPropertiesForKeys: nil))
      ?? []).filter { $0.pathExtension == "po" }.sorted { $0.path < $1.path }
    let script = po.appending(path: "compile.sh")
    let locale = context.pluginWorkDirectoryURL.appending(path: "locale")
    let source = context.pluginWorkDirectoryURL.appending(path: "BuiltCatalogues.swift")
    return [
      .buildCommand(
        displayName: "Compiling \(catalogues.count) message catalogues",
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: [script.path, locale.path, source.path] + catalogues.map(\.path),
        inputFiles: [script] + catalogues, outputFiles: [source])
    ]
  }
}
