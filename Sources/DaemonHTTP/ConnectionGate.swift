import Hummingbird
import NIOCore
import NIOHTTPTypes
import RippleCore

/// Which connections rippled keeps when a new one would go over the cap (docs/DESIGN.md, "Open files"). Pure:
/// the gate below holds one behind a lock. Every connection costs a file descriptor; idle ones (no request in
/// flight: a keep-alive, or a client that connected and said nothing) are what a flood is made of, so a new
/// connection at the cap pushes out the idle one used least recently, and is itself refused only when every
/// connection is busy. So idle connections can never starve `/healthz`, and the count never passes `limit`.
struct ConnectionTable: Sendable {
  enum Admission: Equatable, Sendable {
    case admitted
    /// Admitted, after closing this idle connection.
    case admittedEvicting(Int)
    case refused
  }

  let limit: Int
  private(set) var busy: [Int: Bool] = [:]
  /// When each connection last did something (a counter, not a clock): the smallest idle one goes first.
  private var lastActive: [Int: UInt64] = [:]
  private var tick: UInt64 = 0

  init(limit: Int) { self.limit = max(1, limit) }

  var count: Int { busy.count }

  mutating func open(_ id: Int) -> Admission {
    var admission = Admission.admitted
    if busy.count >= limit {
      let idle = busy.filter { !$0.value }.keys
      guard let victim = idle.min(by: { lastActive[$0, default: 0] < lastActive[$1, default: 0] }) else {
        return .refused
      }
      close(victim)
      admission = .admittedEvicting(victim)
    }
    tick += 1
    busy[id] = false
    lastActive[id] = tick
    return admission
  }

  mutating func setBusy(_ id: Int, _ value: Bool) {
    guard busy[id] != nil else { return }
    tick += 1
    busy[id] = value
    lastActive[id] = tick
  }

  mutating func close(_ id: Int) {
    busy[id] = nil
    lastActive[id] = nil
  }
}

/// The daemon's connection cap (`http.maxConnections`): one table for the server, one `Handler` per connection.
package final class ConnectionGate: Sendable {
  private struct State {
    var table: ConnectionTable
    var channels: [Int: any Channel] = [:]
    var nextID = 0
    var refused = 0
    var evicted = 0
  }

  private let state: Locked<State>

  package init(limit: Int) { state = Locked(State(table: ConnectionTable(limit: limit))) }

  var limit: Int { state.withLock { $0.table.limit } }
  var openCount: Int { state.withLock { $0.table.count } }
  /// Connections closed unanswered (all busy) and idle ones closed for newcomers, since the start.
  var counters: (refused: Int, evicted: Int) { state.withLock { ($0.refused, $0.evicted) } }

  /// Registers a new connection: its id, or nil when it must be closed at once.
  fileprivate func open(_ channel: any Channel) -> Int? {
    let (id, victim): (Int?, (any Channel)?) = state.withLock { state in
      state.nextID += 1
      let id = state.nextID
      switch state.table.open(id) {
      case .refused:
        state.refused += 1
        return (nil, nil)
      case .admitted:
        state.channels[id] = channel
        return (id, nil)
      case .admittedEvicting(let other):
        state.evicted += 1
        state.channels[id] = channel
        return (id, state.channels.removeValue(forKey: other))
      }
    }
    victim?.close(promise: nil)
    return id
  }

  fileprivate func setBusy(_ id: Int, _ busy: Bool) { state.withLock { $0.table.setBusy(id, busy) } }

  fileprivate func close(_ id: Int) {
    state.withLock { state in
      state.table.close(id)
      state.channels[id] = nil
    }
  }

  /// A handler for a new connection's pipeline (after HTTP decoding: it sees where requests begin and end).
  package func handler() -> some RemovableChannelHandler { Handler(gate: self) }

  final class Handler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let gate: ConnectionGate
    private var id: Int?

    fileprivate init(gate: ConnectionGate) { self.gate = gate }

    func handlerAdded(context: ChannelHandlerContext) {
      guard let id = gate.open(context.channel) else {
        context.close(promise: nil)
        return
      }
      self.id = id
      let gate = self.gate
      context.channel.closeFuture.whenComplete { _ in gate.close(id) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      if let id, case .head = unwrapInboundIn(data) { gate.setBusy(id, true) }
      context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
      if let id, case .end = unwrapOutboundIn(data) { gate.setBusy(id, false) }
      context.write(data, promise: promise)
    }
  }
}
