import Testing
import NotibaseTestSupport

/// The suites that talk to local HTTP/2 peers (Python processes) run one test at a time: starting
/// and driving peers takes CPU that the rest of the package's tests, some with time budgets, need
/// on a small machine.
@Suite("Senders against local HTTP/2 peers", .serialized)
struct PeerTests {}
