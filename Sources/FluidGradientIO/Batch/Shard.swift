import FluidGradient
import Foundation

/// Which 1/N share of a batch's jobs to render: jobs whose index is `index` modulo `count`.
package struct Shard: Equatable, Sendable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    package static let all = Shard(index: 0, count: 1)

    package func includes(_ job: Int) -> Bool { job % count == index }

    package var description: String { "\(index)/\(count)" }

    /// `K/N`, with 0 ≤ K < N.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/").map { Int(String($0).trimmingSpaces()) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, (0..<count).contains(index)
        else { return nil }
        self.init(index: index, count: count)
    }

    /// The shard the environment of a batch scheduler assigns, if any:
    /// Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX`, with the count from `count` or
    /// else `FLUIDGRADIENT_SHARD_COUNT`) or Slurm job arrays (`SLURM_ARRAY_TASK_ID` −
    /// `SLURM_ARRAY_TASK_MIN`, of `count` or else `SLURM_ARRAY_TASK_COUNT`). `count` or
    /// `FLUIDGRADIENT_SHARD_COUNT` without an index is an error.
    /// A variable set to nothing counts as unset, as `VAR= command` means in a shell.
    ///
    /// - Parameters:
    ///   - environment: the process's environment variables.
    ///   - count: the number of shards given on the command line, if any.
    /// - Returns: the shard, or nil when the environment names none.
    /// - Throws: ``ShardEnvironmentError`` when the variables (with `count`) do not make a shard.
    package static func fromEnvironment(
        _ environment: [String: String], count: Int?
    ) throws(ShardEnvironmentError) -> Shard? {
        let environment = environment.filter { !$0.value.isEmpty }
        /// A numeric variable: nil when unset.
        func number(_ name: String) throws(ShardEnvironmentError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text.trimmingSpaces()) else { throw .notANumber(name, text) }
            return value
        }
        /// `count`, or else the count variable `name`.
        func total(_ name: String) throws(ShardEnvironmentError) -> Int? {
            if let count { return count }
            return try number(name)
        }
        if let text = environment["JOB_COMPLETION_INDEX"] {
            guard let index = Int(text), index >= 0 else { throw .notAnIndex(text) }
            guard let total = try total("FLUIDGRADIENT_SHARD_COUNT") else { throw .indexWithoutCount }
            guard total >= 1, index < total else { throw .indexNotBelowCount(index, total) }
            return Shard(index: index, count: total)
        }
        if let text = environment["SLURM_ARRAY_TASK_ID"] {
            guard let id = Int(text) else { throw .notANumber("SLURM_ARRAY_TASK_ID", text) }
            let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            guard let total = try total("SLURM_ARRAY_TASK_COUNT") else { throw .taskWithoutCount }
            guard total >= 1 else { throw .noTasks(total) }
            // Both come from outside: their difference may not fit.
            let (index, overflow) = id.subtractingReportingOverflow(minimum)
            guard !overflow, (0..<total).contains(index) else { throw .taskOutside(id, minimum: minimum, count: total) }
            return Shard(index: index, count: total)
        }
        if count != nil { throw .countWithoutIndex }
        if let text = environment["FLUIDGRADIENT_SHARD_COUNT"] { throw .countVariableWithoutIndex(text) }
        return nil
    }
}
