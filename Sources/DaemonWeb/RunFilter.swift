import Foundation
import RunModel

/// The runs list's filters and page, as the index's query parameters carry them: `repository`, `branch`, `state`
/// (one or more, comma-separated) and `before` (the id of the last run of the previous page). Pure.
public struct RunFilter: Sendable, Hashable {
  public var repository: String?
  public var branch: String?
  public var states: [RunState]
  public var before: Int64?

  public init(repository: String? = nil, branch: String? = nil, states: [RunState] = [], before: Int64? = nil) {
    self.repository = repository
    self.branch = branch
    self.states = states
    self.before = before
  }

  /// Runs per page of a filtered list.
  public static let pageSize = 50

  /// What is wrong with a query, in a sentence (answered with 400).
  public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// The filter a query asks for; nil when it asks for none (the dashboard as it is). Empty values count as absent.
  public static func parse(_ query: [String: String]) throws(Problem) -> RunFilter? {
    func value(_ name: String) -> String? {
      guard let text = query[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
      return text
    }
    var filter = RunFilter(repository: value("repository"), branch: value("branch"))
    if let text = value("state") {
      for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
        guard let state = RunState(rawValue: name) else {
          let known = RunState.allCases.map(\.rawValue).joined(separator: ", ")
          throw Problem(description: "There is no run state '\(name)'. Filter by one of: \(known).")
        }
        if !filter.states.contains(state) { filter.states.append(state) }
      }
    }
    if let text = value("before") {
      guard let id = Int64(text), id > 0 else {
        throw Problem(description: "'before' is the id of a run, a whole number above 0 (not '\(text)').")
      }
      filter.before = id
    }
    return filter == RunFilter() ? nil : filter
  }

  /// The index's URL for this filter (and `before`), parameters percent-encoded; `/` for no filter.
  public func url(before: Int64? = nil) -> String {
    var items: [(String, String)] = []
    if let repository { items.append(("repository", repository)) }
    if let branch { items.append(("branch", branch)) }
    if !states.isEmpty { items.append(("state", states.map(\.rawValue).joined(separator: ","))) }
    if let before { items.append(("before", String(before))) }
    guard !items.isEmpty else { return "/" }
    return "/?" + items.map { "\($0)=\(Self.encode($1))" }.joined(separator: "&")
  }

  /// What the filter shows, in words: "branch main, failed runs".
  var summary: String {
    var parts: [String] = []
    if let repository { parts.append("repository \(repository)") }
    if let branch { parts.append("branch \(branch)") }
    if !states.isEmpty { parts.append(states.map(\.rawValue).joined(separator: " or ") + " runs") }
    if let before { parts.append("older than run #\(before)") }
    return parts.isEmpty ? "every run" : parts.joined(separator: ", ")
  }

  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~,")

  static func encode(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }
}
