import Foundation
import RunModel

/// A layered (Sugiyama-style) layout of a run's affected targets.
///
/// Layers: a target's layer is 1 + the deepest of its dependencies within the set, so every dependency sits in a
/// column left of its dependents. An edge that skips layers is routed through one "dummy" slot per layer it crosses;
/// the slots of one source are shared by all its long edges (a trunk that branches), which keeps long edges out of
/// the boxes they pass and keeps the count of slots below (targets × layers). Order within a layer: barycenter sweeps
/// over adjacent layers, keeping the order with the fewest crossings. Everything is deterministic: nodes are sorted by
/// key first and every tie is broken by position or key.
struct GraphLayout {
  struct Node {
    var target: RunTarget
    var layer: Int
    var x = 0.0
    var y = 0.0
    var width = 0.0
    var height = 0.0
  }

  struct Edge {
    /// Indexes into `nodes`: the dependency (drawn on the left) and the dependent.
    var dependency: Int
    var dependent: Int
    var points: [Point]
    /// In a dependency cycle (impossible in SwiftPM, tolerated here): drawn without routing.
    var isBack: Bool
  }

  struct Point: Hashable {
    var x: Double
    var y: Double
  }

  enum Metrics {
    static let nodeHeight = 36.0
    static let nodeGap = 12.0
    static let dummyPitch = 12.0
    static let layerGap = 60.0
    static let minNodeWidth = 96.0
    static let maxNodeWidth = 260.0
    static let nameLimit = 30
    static let packageLimit = 34
    static let nameCharWidth = 7.7
    static let packageCharWidth = 6.1
    static let statusWidth = 18.0
    static let leftPadding = 13.0
    static let rightPadding = 10.0
    static let sweeps = 8
    static let placementPasses = 8
  }

  var nodes: [Node]
  var edges: [Edge]
  var layerCount: Int
  var width: Double
  var height: Double
  /// Crossings between adjacent layers (dummy segments included) in the chosen order.
  var crossings: Int

  init(targets input: [RunTarget], edges inputEdges: [RunEdge]) {
    // Nodes: unique by key, sorted by key.
    var seen = Set<String>()
    var targets: [RunTarget] = []
    for target in input where seen.insert(target.key).inserted { targets.append(target) }
    targets.sort { $0.key < $1.key }
    let count = targets.count
    var index: [String: Int] = [:]
    for (position, target) in targets.enumerated() { index[target.key] = position }

    // Links: dependency → dependent, unique, no self loops.
    var linkSet = Set<Link>()
    for edge in inputEdges {
      guard let dependent = index[edge.from], let dependency = index[edge.to], dependent != dependency else { continue }
      linkSet.insert(Link(dependency: dependency, dependent: dependent))
    }
    let links = linkSet.sorted { ($0.dependency, $0.dependent) < ($1.dependency, $1.dependent) }
    var dependencies = [[Int]](repeating: [], count: count)
    var dependents = [[Int]](repeating: [], count: count)
    for link in links {
      dependencies[link.dependent].append(link.dependency)
      dependents[link.dependency].append(link.dependent)
    }

    let layer = Self.layers(dependencies: dependencies, dependents: dependents)
    let layerCount = (layer.max() ?? -1) + 1

    // Items: the real nodes (0..<count), then dummy slots. Segments join items in adjacent layers.
    var itemLayer = layer
    var dummyIndex: [Link: Int] = [:]  // (source, layer) → item
    var segmentSet = Set<Link>()
    var routes: [[Int]] = []
    var back: [Bool] = []
    for link in links {
      let from = link.dependency
      let to = link.dependent
      guard layer[to] > layer[from] else {
        routes.append([from, to])
        back.append(true)
        continue
      }
      var route = [from]
      var previous = from
      for crossed in stride(from: layer[from] + 1, to: layer[to], by: 1) {
        let key = Link(dependency: from, dependent: crossed)
        let item: Int
        if let existing = dummyIndex[key] {
          item = existing
        } else {
          item = itemLayer.count
          itemLayer.append(crossed)
          dummyIndex[key] = item
        }
        segmentSet.insert(Link(dependency: previous, dependent: item))
        route.append(item)
        previous = item
      }
      segmentSet.insert(Link(dependency: previous, dependent: to))
      route.append(to)
      routes.append(route)
      back.append(false)
    }
    let itemCount = itemLayer.count
    var left = [[Int]](repeating: [], count: itemCount)
    var right = [[Int]](repeating: [], count: itemCount)
    let segments = segmentSet.sorted { ($0.dependency, $0.dependent) < ($1.dependency, $1.dependent) }
    for segment in segments {
      right[segment.dependency].append(segment.dependent)
      left[segment.dependent].append(segment.dependency)
    }

    // Initial order: layer 0 directly changed first, then by key; every later layer by a first forward barycenter.
    var order = [[Int]](repeating: [], count: layerCount)
    for item in 0..<itemCount { order[itemLayer[item]].append(item) }
    if layerCount > 0 {
      order[0].sort { (GraphStyle.isDirect(targets[$0]) ? 0 : 1, $0) < (GraphStyle.isDirect(targets[$1]) ? 0 : 1, $1) }
    }
    var position = [Int](repeating: 0, count: itemCount)
    func updatePositions(_ layerIndex: Int) {
      for (slot, item) in order[layerIndex].enumerated() { position[item] = slot }
    }
    if layerCount > 0 { updatePositions(0) }
    for layerIndex in stride(from: 1, to: layerCount, by: 1) {
      Self.reorder(&order[layerIndex], neighbours: left, position: &position, keepUnconnected: false)
    }

    func totalCrossings() -> Int {
      var total = 0
      for layerIndex in stride(from: 0, to: layerCount - 1, by: 1) {
        var pairs: [(Int, Int)] = []
        for item in order[layerIndex] {
          for next in right[item] { pairs.append((position[item], position[next])) }
        }
        total += Self.crossings(pairs)
      }
      return total
    }

    var best = order
    var bestCrossings = totalCrossings()
    if bestCrossings > 0 {
      for _ in 0..<Metrics.sweeps {
        for layerIndex in stride(from: 1, to: layerCount, by: 1) {
          Self.reorder(&order[layerIndex], neighbours: left, position: &position, keepUnconnected: true)
        }
        for layerIndex in stride(from: layerCount - 2, through: 0, by: -1) {
          Self.reorder(&order[layerIndex], neighbours: right, position: &position, keepUnconnected: true)
        }
        let current = totalCrossings()
        if current < bestCrossings {
          best = order
          bestCrossings = current
          if current == 0 { break }
        }
      }
    }
    order = best
    for layerIndex in 0..<layerCount { updatePositions(layerIndex) }

    // Sizes: every box of a layer has the layer's width; a layer of dummies only is a narrow channel.
    var nodes = targets.enumerated().map { Node(target: $1, layer: layer[$0]) }
    var layerWidth = [Double](repeating: 24, count: layerCount)
    for node in nodes { layerWidth[node.layer] = max(layerWidth[node.layer], Self.naturalWidth(node.target)) }
    for layerIndex in 0..<layerCount where order[layerIndex].contains(where: { $0 < count }) {
      layerWidth[layerIndex] = min(Metrics.maxNodeWidth, max(Metrics.minNodeWidth, layerWidth[layerIndex]))
    }
    var layerX = [Double](repeating: 0, count: layerCount)
    var x = 0.0
    for layerIndex in 0..<layerCount {
      layerX[layerIndex] = x
      x += layerWidth[layerIndex] + Metrics.layerGap
    }
    let totalWidth = layerCount == 0 ? 0 : x - Metrics.layerGap

    // Vertical placement: start with every layer stacked and centred, then pull each item towards its neighbours
    // (alternately those on the left and on the right) while keeping the order and the spacing of its layer.
    func half(_ item: Int) -> Double {
      item < count ? (Metrics.nodeHeight + Metrics.nodeGap) / 2 : Metrics.dummyPitch / 2
    }
    var centre = [Double](repeating: 0, count: itemCount)
    let layerHeight = order.map { items in items.reduce(0.0) { $0 + 2 * half($1) } }
    let tallest = layerHeight.max() ?? 0
    for layerIndex in 0..<layerCount {
      var y = (tallest - layerHeight[layerIndex]) / 2
      for item in order[layerIndex] {
        centre[item] = y + half(item)
        y += 2 * half(item)
      }
    }
    for pass in 0..<Metrics.placementPasses {
      let forward = pass % 2 == 0
      let layers =
        forward
        ? Array(stride(from: 1, to: layerCount, by: 1)) : Array(stride(from: layerCount - 2, through: 0, by: -1))
      for layerIndex in layers {
        let items = order[layerIndex]
        let desired = items.map { item -> Double in
          let around = forward ? left[item] : right[item]
          guard !around.isEmpty else { return centre[item] }
          return around.reduce(0.0) { $0 + centre[$1] } / Double(around.count)
        }
        let placed = Self.place(desired: desired, halves: items.map(half), weights: items.map { $0 < count ? 2 : 1 })
        for (item, y) in zip(items, placed) { centre[item] = y }
      }
    }
    let top = (0..<itemCount).map { centre[$0] - half($0) }.min() ?? 0
    let bottom = (0..<itemCount).map { centre[$0] + half($0) }.max() ?? 0
    let totalHeight = max(0, bottom - top - Metrics.nodeGap)
    var itemY = [Double](repeating: 0, count: itemCount)  // top of a box, centre line of a dummy
    for item in 0..<itemCount {
      let y = centre[item] - top - Metrics.nodeGap / 2
      itemY[item] = item < count ? (y - Metrics.nodeHeight / 2).rounded() : y.rounded()
    }
    for node in nodes.indices {
      nodes[node].x = layerX[nodes[node].layer]
      nodes[node].width = layerWidth[nodes[node].layer]
      nodes[node].y = itemY[node]
      nodes[node].height = Metrics.nodeHeight
    }

    // Ports: the edges leaving a box on the right (grouped by first hop) and entering it on the left (grouped by last
    // hop) are spread over its height in the order of the items they lead to.
    func centreY(_ item: Int) -> Double { item < count ? itemY[item] + Metrics.nodeHeight / 2 : itemY[item] }
    var outHops = [[Int]](repeating: [], count: count)
    var inHops = [[Int]](repeating: [], count: count)
    for route in routes {
      outHops[route[0]].append(route[1])
      inHops[route[route.count - 1]].append(route[route.count - 2])
    }
    func portY(_ node: Int, hop: Int, hops: [Int]) -> Double {
      let distinct = Array(Set(hops)).sorted { (centreY($0), $0) < (centreY($1), $1) }
      guard distinct.count > 1, let slot = distinct.firstIndex(of: hop) else { return centreY(node) }
      let top = itemY[node] + 5
      let span = Metrics.nodeHeight - 10
      return top + span * Double(slot) / Double(distinct.count - 1)
    }
    var edges: [Edge] = []
    edges.reserveCapacity(routes.count)
    for (number, route) in routes.enumerated() {
      let from = route[0]
      let to = route[route.count - 1]
      var points = [
        Point(x: layerX[layer[from]] + layerWidth[layer[from]], y: portY(from, hop: route[1], hops: outHops[from]))
      ]
      for item in route.dropFirst().dropLast() {
        let itemX = layerX[itemLayer[item]]
        points.append(Point(x: itemX, y: itemY[item]))
        points.append(Point(x: itemX + layerWidth[itemLayer[item]], y: itemY[item]))
      }
      points.append(Point(x: layerX[layer[to]], y: portY(to, hop: route[route.count - 2], hops: inHops[to])))
      edges.append(Edge(dependency: from, dependent: to, points: points, isBack: back[number]))
    }

    self.nodes = nodes
    self.edges = edges
    self.layerCount = layerCount
    self.width = totalWidth
    self.height = totalHeight
    self.crossings = bestCrossings
  }

  private struct Link: Hashable {
    var dependency: Int
    var dependent: Int
  }

  /// Longest-path layering (Kahn's order); a cycle is broken at its lowest index and its unfinished dependencies ignored.
  static func layers(dependencies: [[Int]], dependents: [[Int]]) -> [Int] {
    let count = dependencies.count
    var pending = dependencies.map(\.count)
    var layer = [Int](repeating: 0, count: count)
    var done = [Bool](repeating: false, count: count)
    var ready = (0..<count).filter { pending[$0] == 0 }
    var head = 0
    var processed = 0
    var nextUndone = 0
    while processed < count {
      if head == ready.count {
        while done[nextUndone] { nextUndone += 1 }
        ready.append(nextUndone)
      }
      let node = ready[head]
      head += 1
      if done[node] { continue }
      done[node] = true
      processed += 1
      layer[node] = dependencies[node].lazy.filter { done[$0] && $0 != node }.map { layer[$0] + 1 }.max() ?? 0
      for dependent in dependents[node] {
        pending[dependent] -= 1
        if pending[dependent] == 0 && !done[dependent] { ready.append(dependent) }
      }
    }
    return layer
  }

  /// Sorts one layer by the mean position of each item's neighbours in the fixed layer. With `keepUnconnected`,
  /// items without such neighbours keep their slots.
  private static func reorder(_ items: inout [Int], neighbours: [[Int]], position: inout [Int], keepUnconnected: Bool) {
    var keyed: [(value: Double, slot: Int, item: Int)] = []
    var fixedSlots: [Int] = []
    for (slot, item) in items.enumerated() {
      let around = neighbours[item]
      if around.isEmpty {
        if keepUnconnected { continue }
        keyed.append((Double(Int.max), slot, item))
      } else {
        let sum = around.reduce(0) { $0 + position[$1] }
        keyed.append((Double(sum) / Double(around.count), slot, item))
      }
      fixedSlots.append(slot)
    }
    keyed.sort { ($0.value, $0.slot) < ($1.value, $1.slot) }
    for (slot, entry) in zip(fixedSlots, keyed) { items[slot] = entry.item }
    for (slot, item) in items.enumerated() { position[item] = slot }
  }

  /// Centres as close as possible (weighted least squares) to `desired`, in the given order, each pair of neighbours
  /// at least the sum of their half extents apart: isotonic regression by pool-adjacent-violators on the centres less
  /// their minimum offsets.
  static func place(desired: [Double], halves: [Double], weights: [Double]) -> [Double] {
    var offsets = [Double](repeating: 0, count: desired.count)
    for index in desired.indices.dropFirst() {
      offsets[index] = offsets[index - 1] + halves[index - 1] + halves[index]
    }
    var blocks: [(sum: Double, weight: Double, count: Int)] = []
    for index in desired.indices {
      blocks.append((weights[index] * (desired[index] - offsets[index]), weights[index], 1))
      while blocks.count > 1 {
        let last = blocks[blocks.count - 1]
        let previous = blocks[blocks.count - 2]
        guard previous.sum / previous.weight > last.sum / last.weight else { break }
        blocks.removeLast(2)
        blocks.append((previous.sum + last.sum, previous.weight + last.weight, previous.count + last.count))
      }
    }
    var result: [Double] = []
    result.reserveCapacity(desired.count)
    for block in blocks {
      for _ in 0..<block.count { result.append(block.sum / block.weight + offsets[result.count]) }
    }
    return result
  }

  /// Crossings among segments between two layers, given as (upper position, lower position): inversions of the lower
  /// positions once sorted by upper, counted by merge sort.
  static func crossings(_ pairs: [(Int, Int)]) -> Int {
    var lower = pairs.sorted { $0 < $1 }.map(\.1)
    var scratch = lower
    func count(_ low: Int, _ high: Int) -> Int {
      guard high - low > 1 else { return 0 }
      let middle = (low + high) / 2
      var total = count(low, middle) + count(middle, high)
      var i = low
      var j = middle
      var k = low
      while i < middle && j < high {
        if lower[i] <= lower[j] {
          scratch[k] = lower[i]
          i += 1
        } else {
          scratch[k] = lower[j]
          total += middle - i
          j += 1
        }
        k += 1
      }
      while i < middle {
        scratch[k] = lower[i]
        i += 1
        k += 1
      }
      while j < high {
        scratch[k] = lower[j]
        j += 1
        k += 1
      }
      for index in low..<high { lower[index] = scratch[index] }
      return total
    }
    return count(0, lower.count)
  }

  static func naturalWidth(_ target: RunTarget) -> Double {
    let name = Double(GraphStyle.label(target.name).count) * Metrics.nameCharWidth
    let package =
      target.package == "." ? 0 : Double(GraphStyle.packageLabel(target.package).count) * Metrics.packageCharWidth
    let status = target.isTest ? Metrics.statusWidth : 0
    return (max(name, package) + Metrics.leftPadding + Metrics.rightPadding + status).rounded(.up)
  }
}
