import NotibaseCore

/// Input a command could not use, with the field it concerns.
struct InputError: Error, CustomStringConvertible {
    var context: String
    var problem: DecodingProblem

    init(context: String, error: any Error) {
        self.context = context
        self.problem = DecodingProblem(error)
    }

    init(context: String, problem: DecodingProblem) {
        self.context = context
        self.problem = problem
    }

    var description: String {
        if problem.field.isEmpty { return "\(context): \(problem.message)" }
        return "\(context): \(problem.field) \(problem.message)"
    }
}
