import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How rippled shares its open files (docs/DESIGN.md, "Open files"). Every HTTP connection holds one; the store,
/// the run logs, the mirrors and every process a run starts (three pipes each while it runs) need theirs too,
/// and running out of them used to kill the daemon (swift-subprocess aborts when a spawn fails half-way). So the
/// soft limit is raised to the hard one, a share of it is reserved for everything but connections, and the
/// configured caps are lowered (with a warning) to what is left.
package enum DescriptorBudget {
  package struct Plan: Equatable, Sendable {
    package var connections: Int
    package var followers: Int
    package var warning: String?
  }

  /// The largest soft limit rippled asks for (children inherit it; some close every descriptor up to it).
  static let ceiling = 65_536

  /// The caps for an open-file limit (pure).
  package static func plan(openFileLimit: Int, connections: Int, followers: Int) -> Plan {
    let reserved = min(256, openFileLimit / 2)
    let room = max(8, openFileLimit - reserved)
    var plan = Plan(connections: min(connections, room), followers: followers, warning: nil)
    plan.followers = min(followers, max(1, plan.connections / 2))
    if plan.connections < connections || plan.followers < followers {
      plan.warning =
        "the open-file limit is \(openFileLimit): serving at most \(plan.connections) connections"
        + " (http.maxConnections: \(connections)) and \(plan.followers) log followers"
        + " (http.maxLogFollowers: \(followers)), keeping \(reserved) for the store, logs and runs;"
        + " raise LimitNOFILE= in the unit for more"
    }
    return plan
  }

  /// Raises the soft open-file limit towards the hard one (at most `ceiling`); the soft limit now in force.
  package static func raiseSoftLimit() -> Int {
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0 else { return 1024 }
    let target = min(limit.rlim_max, rlim_t(ceiling))
    if limit.rlim_cur < target {
      var raised = limit
      raised.rlim_cur = target
      if setrlimit(resource, &raised) == 0 { limit = raised }
    }
    return Int(clamping: limit.rlim_cur)
  }
}
