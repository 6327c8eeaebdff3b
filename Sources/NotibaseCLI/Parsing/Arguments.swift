/// An option a command accepts: `--name VALUE` (or `--name=VALUE`), or a `--name` flag.
struct OptionSpec: Sendable {
    /// The name without dashes.
    var name: String
    var takesValue: Bool
    /// Whether it may be given more than once.
    var repeatable: Bool = false

    static func value(_ name: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, takesValue: true, repeatable: repeatable)
    }

    /// A flag without a value.
    static func flag(_ name: String) -> OptionSpec {
        OptionSpec(name: name, takesValue: false)
    }
}

/// A command line that was wrong: the message says what and how to fix it.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Parsed command-line arguments: options by name, and the positional words.
struct Arguments: Sendable {
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// The words that are not options, in order.
    private(set) var positional: [String] = []

    /// Parses `words` against `spec`; `--help` is always accepted. Unknown options, a missing
    /// value and a repeated single option are usage errors.
    init(_ words: [String], spec: [OptionSpec]) throws {
        let known = Dictionary((spec + [.flag("help")]).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            guard !optionsEnded, word.hasPrefix("--"), word.count > 2 else {
                if word == "--" && !optionsEnded { optionsEnded = true; continue }
                positional.append(word)
                continue
            }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = known[name] else {
                let names = known.keys.sorted().map { "--" + $0 }.joined(separator: ", ")
                throw UsageError("unknown option --\(name) (the options are \(names))")
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < words.count {
                    value = words[index]
                    index += 1
                } else {
                    throw UsageError("--\(name) needs a value")
                }
                if values[name] != nil && !option.repeatable {
                    throw UsageError("--\(name) is given more than once")
                }
                values[name, default: []].append(value)
            } else {
                if inlineValue != nil { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            }
        }
    }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of an option, if given.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option.
    func values(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of an option parsed as an integer in `range`, or `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = value(name) else { return defaultValue }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// Throws unless there are at most `count` positional words.
    func expectPositional(atMost count: Int) throws {
        if positional.count > count {
            throw UsageError("unexpected argument '\(positional[count])'")
        }
    }
}
