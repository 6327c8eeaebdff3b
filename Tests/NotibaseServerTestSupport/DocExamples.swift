import Foundation

/// The shell examples of a Markdown page, read as the docs test runs them (the convention is
/// docs/decisions/0031-docs-examples-are-run.md):
///
/// - every ```` ```sh ```` block is read in the page's order; a command is a line that is not a
///   comment, continued over the next lines while a single quote is open or the line ends in `\`;
/// - `# 201 …` on the lines right after a command (or at the end of its last line) is the answer
///   the page shows: its status, then, when what follows starts with `{` or `[`, the fields shown
///   (``DocJSON``: `"…"` any value, `"nb_server_…"` a prefix, `…` in an object or array more of
///   the same); comment lines indented after it (`#      …`) continue it;
/// - `NAME=…` is a capture: the test runs its right side and keeps the value for the examples
///   after it; a value that is itself elided (`ADMIN=nb_admin_…`) is one the reader fills in,
///   and the test gives its own;
/// - a command whose text says `# not run here: why`, or every command of a block after a line
///   `<!-- not run here: why -->`, is skipped and counted.
struct DocExample: CustomStringConvertible {
    /// The page's line where the command starts (1-based).
    var line: Int
    var command: String
    var status: Int?
    /// What the page shows after the status (its JSON, elided or not), when it shows any.
    var shown: String?
    /// Why the test does not run it, when the page says so.
    var skipped: String?

    /// `NAME` when the command is a capture `NAME=…`.
    var captured: (name: String, value: String)? {
        guard let equals = command.firstIndex(of: "="), !command.contains("\n") else { return nil }
        let name = String(command[..<equals])
        guard let first = name.first, first.isUppercase, name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) else { return nil }
        var value = String(command[command.index(after: equals)...])
        if let comment = value.range(of: "  #") { value = String(value[..<comment.lowerBound]) }
        return (name, value.trimmingCharacters(in: .whitespaces))
    }

    var description: String { "line \(line): \(command.split(separator: "\n").first ?? "")" }

    /// The examples of `page`, in order.
    static func examples(in page: String) -> [DocExample] {
        var examples: [DocExample] = []
        let lines = page.components(separatedBy: "\n")
        var index = 0
        var blockSkip: String?
        while index < lines.count {
            let line = lines[index]
            if let reason = marker(line) { blockSkip = reason }
            guard line.hasPrefix("```sh") else {
                if line.hasPrefix("```") || (!line.isEmpty && marker(line) == nil) { blockSkip = nil }
                index += 1
                continue
            }
            index += 1
            var expecting = false
            while index < lines.count && !lines[index].hasPrefix("```") {
                let text = lines[index]
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty {
                    expecting = false
                    index += 1
                } else if trimmed.hasPrefix("#") {
                    let comment = trimmed.dropFirst().drop(while: { $0 == " " })
                    if expecting, var last = examples.popLast() {
                        if last.status == nil, let (status, rest) = statusLine(comment) {
                            last.status = status
                            last.shown = rest
                        } else if last.status != nil, text.hasPrefix("#  "), !(comment.first?.isNumber ?? false) {
                            last.shown = (last.shown ?? "") + " " + comment
                        } else {
                            expecting = false
                        }
                        examples.append(last)
                    }
                    index += 1
                } else {
                    let start = index
                    var command = text
                    while (command.filter { $0 == "'" }.count % 2 == 1 || command.hasSuffix("\\")) && index + 1 < lines.count
                        && !lines[index + 1].hasPrefix("```") {
                        index += 1
                        command += "\n" + lines[index]
                    }
                    var example = DocExample(line: start + 1, command: command)
                    if let reason = blockSkip {
                        example.skipped = reason
                    } else if let range = command.range(of: "# not run here: ") {
                        example.skipped = String(command[range.upperBound...].prefix { $0 != "\n" })
                    }
                    let lastLine = command.components(separatedBy: "\n").last ?? ""
                    if let hash = lastLine.range(of: " # ", options: .backwards),
                       let (status, rest) = statusLine(lastLine[hash.upperBound...]) {
                        example.status = status
                        example.shown = rest
                    }
                    examples.append(example)
                    expecting = true
                    index += 1
                }
            }
            blockSkip = nil
            index += 1
        }
        return examples
    }

    private static func marker(_ line: String) -> String? {
        guard line.hasPrefix("<!-- not run here: "), let end = line.range(of: " -->") else { return nil }
        return String(line[line.index(line.startIndex, offsetBy: 19)..<end.lowerBound])
    }

    /// `201 {…}` as the status and what follows.
    private static func statusLine(_ comment: Substring) -> (Int, String)? {
        let digits = comment.prefix { $0.isNumber }
        guard digits.count == 3, let status = Int(digits), (100...599).contains(status) else { return nil }
        let rest = comment.dropFirst(3)
        guard rest.isEmpty || rest.first == " " else { return nil }
        return (status, rest.trimmingCharacters(in: .whitespaces))
    }
}
