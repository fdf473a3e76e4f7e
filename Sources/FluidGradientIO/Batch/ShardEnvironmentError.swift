import FluidGradient

/// Environment variables of a batch scheduler that do not make a shard.
package enum ShardEnvironmentError: FluidGradientError, Equatable {
    /// A variable that should be a number is not: its name and value.
    case notANumber(String, String)
    /// `JOB_COMPLETION_INDEX` is not an index 0 or more.
    case notAnIndex(String)
    /// `JOB_COMPLETION_INDEX` without a shard count.
    case indexWithoutCount
    /// `JOB_COMPLETION_INDEX` at or past the shard count.
    case indexNotBelowCount(Int, Int)
    /// `SLURM_ARRAY_TASK_ID` without `SLURM_ARRAY_TASK_COUNT` or a count.
    case taskWithoutCount
    /// `SLURM_ARRAY_TASK_COUNT` below 1.
    case noTasks(Int)
    /// `SLURM_ARRAY_TASK_ID` from `SLURM_ARRAY_TASK_MIN` is not one of the tasks.
    case taskOutside(Int, minimum: Int, count: Int)
    /// `--shard-count` without an index variable.
    case countWithoutIndex
    /// `FLUIDGRADIENT_SHARD_COUNT` without an index variable: its value.
    case countVariableWithoutIndex(String)

    /// True: the environment is the caller's.
    package var isInputError: Bool { true }

    /// One sentence saying which variable is wrong and what to do.
    package var description: String {
        switch self {
        case .notANumber(let name, let text): "\(name)=\(text) is not a number"
        case .notAnIndex(let text):
            "JOB_COMPLETION_INDEX=\(text) is not an index; it should be this pod's index, 0 or more, "
                + "as Kubernetes sets it"
        case .indexWithoutCount:
            "JOB_COMPLETION_INDEX is set but not the number of shards: pass --shard-count N or set "
                + "FLUIDGRADIENT_SHARD_COUNT (the Job's completions)"
        case .indexNotBelowCount(let index, let total):
            "JOB_COMPLETION_INDEX=\(index) is not below the shard count \(total)"
        case .taskWithoutCount: "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: pass --shard-count N"
        case .noTasks(let total): "SLURM_ARRAY_TASK_COUNT=\(total) is not a number of tasks; it should be 1 or more"
        case .taskOutside(let id, let minimum, let total):
            "SLURM_ARRAY_TASK_ID=\(id) (from \(minimum)) is not one of \(total) tasks; "
                + "use a contiguous --array such as 0-\(total - 1)"
        case .countWithoutIndex:
            "--shard-count needs a shard index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID; neither is set "
                + "(use --shard K/N to pick one by hand)"
        case .countVariableWithoutIndex(let text):
            "FLUIDGRADIENT_SHARD_COUNT=\(text) is set but no shard index is: "
                + "set JOB_COMPLETION_INDEX, or pass --shard K/N"
        }
    }
}
