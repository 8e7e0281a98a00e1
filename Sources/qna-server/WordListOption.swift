import ArgumentParser
import Foundation
import QnAServer
import QnAStore

extension QnAServerCommand {
  /// Every `--word-list NAME=FILE`, by name: each name once, within the entries every
  /// session's lists may have.
  static func wordLists(_ options: [String]) throws -> [String: [String]] {
    var lists: [String: [String]] = [:]
    for option in options {
      let (name, entries) = try wordList(option)
      guard lists[name] == nil else {
        throw ValidationError("--word-list: two lists named \(name)")
      }
      lists[name] = entries
    }
    guard lists.values.map(\.count).reduce(0, +) <= ServerConfiguration.maxWordListEntries
    else {
      throw ValidationError(
        "--word-list: at most \(ServerConfiguration.maxWordListEntries) entries in all lists")
    }
    return lists
  }

  /// `--word-list NAME=FILE`: the list's name and its entries, or why not, in words.
  static func wordList(_ option: String) throws -> (String, [String]) {
    guard let equals = option.firstIndex(of: "=") else {
      throw ValidationError("--word-list '\(option)' is not NAME=FILE")
    }
    let name = String(option[..<equals])
    let path = String(option[option.index(after: equals)...])
    guard ModerationStore.validListName(name) else {
      throw ValidationError(
        "--word-list: a list's name is 1–32 of a–z, 0–9, - and _, not '\(name)'")
    }
    let text: String
    do {
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      guard data.count <= ServerConfiguration.maxWordListBytes else {
        throw ValidationError("--word-list \(name): \(path) is larger than 2 MiB")
      }
      text = String(decoding: data, as: UTF8.self)
    } catch let error as ValidationError {
      throw error
    } catch {
      throw ValidationError("--word-list \(name): cannot read \(path)")
    }
    switch ServerConfiguration.parseWordList(text) {
    case .success(let entries): return (name, entries)
    case .failure(let problem):
      throw ValidationError("--word-list \(name) (\(path)):\n\(problem)")
    }
  }
}
