import NotibaseCore

/// The `notibase` command line: parses arguments and hands each command to the library that does
/// the work.
public enum NotibaseCLI {
    /// Runs the command named in `arguments` (the first element is the program name) and exits.
    public static func main(_ arguments: [String]) async {
    }
}
