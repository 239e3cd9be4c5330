/// The fields of a property-list dictionary: unique keys in the order first met, each with a 64-bit hash
/// of its UTF-8 bytes kept beside it (docs/DESIGN.md, rule 12).
///
/// Not a Swift `Dictionary`: a `project.pbxproj` holds one small dictionary per object (a handful of keys),
/// and building a hash table with SipHash per key cost a fifth of reading the file. A small dictionary is
/// searched linearly by hash; one of more than `indexThreshold` keys (the ~100k `objects`) also gets an
/// open-addressing index of entry positions. A key given twice keeps its last value, as Foundation does.
public struct PlistDictionary: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  public typealias Element = (key: String, value: PlistValue)

  struct Entry: Sendable {
    var key: String
    var value: PlistValue
    var hash: UInt64
  }

  /// Above this many keys a dictionary gets an index.
  static let indexThreshold = 16

  private var entries: [Entry]
  /// Empty, or a power-of-two table of entry positions + 1 (0 = free slot), at most half full.
  private var index: [Int32]

  public init() {
    entries = []
    index = []
  }

  public init(dictionaryLiteral elements: (String, PlistValue)...) {
    self.init(uniquing: elements.map { Entry(key: $0.0, value: $0.1, hash: Self.hash($0.0)) })
  }

  public init(_ dictionary: [String: PlistValue]) {
    // Keys are unique already: no check.
    entries = dictionary.map { Entry(key: $0.key, value: $0.value, hash: Self.hash($0.key)) }
    index = []
    if entries.count > Self.indexThreshold { rebuildIndex() }
  }

  /// Entries in file order, possibly with repeated keys (the later value wins, at the first one's place).
  init(uniquing candidates: [Entry]) {
    entries = []
    index = []
    if candidates.count > Self.indexThreshold {
      entries = candidates
      index = [Int32](repeating: 0, count: Self.tableSize(for: candidates.count))
      if !indexUniqueEntries() {
        // A repeated key (rare): insert one by one, the later value replacing the earlier.
        entries = []
        index = [Int32](repeating: 0, count: index.count)
        for entry in candidates { insert(entry) }
      }
    } else {
      entries = candidates
      var position = 1
      while position < entries.count {
        if let earlier = linearPosition(of: entries[position].key, hash: entries[position].hash, before: position) {
          entries[earlier].value = entries.remove(at: position).value
        } else {
          position += 1
        }
      }
    }
  }

  public var count: Int { entries.count }
  public var isEmpty: Bool { entries.isEmpty }
  public var keys: [String] { entries.map(\.key) }
  public var values: [PlistValue] { entries.map(\.value) }

  public subscript(key: String) -> PlistValue? {
    get {
      guard let position = position(of: key, hash: Self.hash(key)) else { return nil }
      return entries[position].value
    }
    set {
      let hash = Self.hash(key)
      let found = position(of: key, hash: hash)
      switch (found, newValue) {
      case (let position?, let value?): entries[position].value = value
      case (nil, let value?):
        if index.isEmpty && entries.count < Self.indexThreshold {
          entries.append(Entry(key: key, value: value, hash: hash))
        } else {
          if index.isEmpty || (entries.count + 1) * 2 > index.count {
            index = [Int32](repeating: 0, count: Self.tableSize(for: entries.count + 1))
            rebuildIndex()
          }
          insert(Entry(key: key, value: value, hash: hash))
        }
      case (let position?, nil):
        entries.remove(at: position)
        if !index.isEmpty { rebuildIndex() }
      case (nil, nil): break
      }
    }
  }

  public func makeIterator() -> some IteratorProtocol<Element> {
    entries.lazy.map { (key: $0.key, value: $0.value) }.makeIterator()
  }

  public static func == (lhs: PlistDictionary, rhs: PlistDictionary) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return lhs.entries.allSatisfy { rhs.position(of: $0.key, hash: $0.hash).map { rhs.entries[$0].value } == $0.value }
  }

  /// Independent of the order of the keys, as `==` is.
  public func hash(into hasher: inout Hasher) {
    var combined = 0
    for entry in entries {
      var one = Hasher()
      one.combine(entry.key)
      one.combine(entry.value)
      combined ^= one.finalize()
    }
    hasher.combine(entries.count)
    hasher.combine(combined)
  }

  // MARK: - Lookup

  private func position(of key: String, hash: UInt64) -> Int? {
    if index.isEmpty { return linearPosition(of: key, hash: hash, before: entries.count) }
    let mask = index.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let stored = Int(index[slot])
      if stored == 0 { return nil }
      if entries[stored - 1].hash == hash && entries[stored - 1].key == key { return stored - 1 }
      slot = (slot + 1) & mask
    }
  }

  private func linearPosition(of key: String, hash: UInt64, before end: Int) -> Int? {
    var position = 0
    while position < end {
      if entries[position].hash == hash && entries[position].key == key { return position }
      position += 1
    }
    return nil
  }

  /// Adds `entry` to an indexed dictionary with room for it, or replaces the value of its key.
  private mutating func insert(_ entry: Entry) {
    let mask = index.count - 1
    var slot = Int(truncatingIfNeeded: entry.hash) & mask
    while true {
      let stored = Int(index[slot])
      if stored == 0 {
        entries.append(entry)
        index[slot] = Int32(entries.count)
        return
      }
      if entries[stored - 1].hash == entry.hash && entries[stored - 1].key == entry.key {
        entries[stored - 1].value = entry.value
        return
      }
      slot = (slot + 1) & mask
    }
  }

  /// Fills the (empty) index from `entries`; false, leaving it partly filled, at the first repeated key.
  private mutating func indexUniqueEntries() -> Bool {
    let mask = index.count - 1
    return entries.withUnsafeBufferPointer { entries in
      index.withUnsafeMutableBufferPointer { index in
        for position in entries.indices {
          let hash = entries[position].hash
          var slot = Int(truncatingIfNeeded: hash) & mask
          while index[slot] != 0 {
            let other = Int(index[slot]) - 1
            if entries[other].hash == hash && entries[other].key == entries[position].key { return false }
            slot = (slot + 1) & mask
          }
          index[slot] = Int32(position + 1)
        }
        return true
      }
    }
  }

  private mutating func rebuildIndex() {
    let size = Self.tableSize(for: entries.count)
    index = [Int32](repeating: 0, count: size)
    let mask = size - 1
    for (position, entry) in entries.enumerated() {
      var slot = Int(truncatingIfNeeded: entry.hash) & mask
      while index[slot] != 0 { slot = (slot + 1) & mask }
      index[slot] = Int32(position + 1)
    }
  }

  private static func tableSize(for count: Int) -> Int {
    var size = 32
    while size < count * 2 { size <<= 1 }
    return size
  }

  // MARK: - Hash

  static func hash(_ key: String) -> UInt64 {
    var key = key
    return key.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
  }

  /// A fast non-cryptographic hash (multiply–xorshift over 8-byte words): keys come from the user's own
  /// project files, and the index only needs them spread, not protected from crafted collisions.
  @inline(__always) static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var state = UInt64(bytes.count) &* multiplier
    var offset = 0
    let count = bytes.count
    while offset + 8 <= count {
      state = (state ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
      state ^= state >> 29
      offset += 8
    }
    if offset < count {
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while offset < count {
        tail |= UInt64(bytes[offset]) << shift
        shift += 8
        offset += 1
      }
      state = (state ^ tail) &* multiplier
      state ^= state >> 29
    }
    state = state &* 0xBF58_476D_1CE4_E5B9
    return state ^ (state >> 31)
  }
}
