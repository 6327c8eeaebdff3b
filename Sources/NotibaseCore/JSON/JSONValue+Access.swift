extension JSONValue {
    /// The member `key` of an object; `null` when it is absent or this is not an object, so that
    /// lookups chain: `answer["items"][0]["id"].string`.
    public subscript(key: String) -> JSONValue {
        if case .object(let members) = self { return members[key] ?? .null }
        return .null
    }

    /// The element at `index` of an array; `null` when out of range or this is not an array.
    public subscript(index: Int) -> JSONValue {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return .null
    }

    /// The text of a string; nil for anything else.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The elements of an array; empty for anything else.
    public var array: [JSONValue] {
        if case .array(let elements) = self { return elements }
        return []
    }

    /// The value of an integer; nil for anything else.
    public var int: Int? {
        if case .integer(let number) = self { return number }
        return nil
    }

    /// The value of `true` or `false`; nil for anything else.
    public var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }
}

extension JSONValue {
    /// How many arrays and objects deep the value nests (a scalar: 0). Counted without recursion,
    /// so no input is deep enough to exhaust the stack.
    public var depth: Int {
        var deepest = 0
        var pending: [(JSONValue, Int)] = [(self, 0)]
        while let (value, level) = pending.popLast() {
            switch value {
            case .array(let items):
                deepest = max(deepest, level + 1)
                pending += items.map { ($0, level + 1) }
            case .object(let fields):
                deepest = max(deepest, level + 1)
                pending += fields.values.map { ($0, level + 1) }
            default:
                deepest = max(deepest, level)
            }
        }
        return deepest
    }
}
