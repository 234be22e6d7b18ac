using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using Perfolizer.Horology;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>How long each cell is measured: the job of every round (--job, --smoke), its rounds and its description.</summary>
public static class SuiteJob
{
    /// <summary>The job of every round, marked default so that BenchmarkDotNet's job options (--iterationCount, ...) change it.</summary>
    public static Job Of(JobKind kind, long? affinity)
    {
        var job = Create(kind)
            // In-process: the services are separate processes started once by this program, which must own their
            // lifetime (stop on Ctrl+C, SIGTERM, failure) and share the wire-byte tallies with the diagnoser that reports them.
            // A child process per case (BenchmarkDotNet's default) would have neither, and would build a project per run.
            .WithToolchain(new InProcessEmitToolchain(TimeSpan.FromMinutes(15), logOutput: true))
            .AsDefault();
        return affinity is { } mask ? job.WithAffinity((nint)mask) : job;
    }

    public static Job Create(JobKind kind) => kind switch
    {
        JobKind.Default => Round("Round"),
        // The default job's round, with more rounds after the look (RoundDesign.Thorough).
        JobKind.Thorough => Round("Round"),
        // The default job's round; the job differs in its rounds (DefaultRounds).
        JobKind.Short => Round("ShortRound"),
        JobKind.Medium => new Job("MediumRun", Job.MediumRun).WithUnrollFactor(1),
        JobKind.Long => new Job("LongRun", Job.LongRun).WithUnrollFactor(1),
        // Every cell once: one invocation, no pilot, no warm-up beyond the connection warm-up in GlobalSetup.
        _ => new Job("Smoke")
            .WithStrategy(RunStrategy.ColdStart)
            .WithLaunchCount(1)
            .WithWarmupCount(0)
            .WithIterationCount(1)
            .WithInvocationCount(1)
            .WithUnrollFactor(1),
    };

    /// <summary>
    /// How long an iteration of a round lasts. 60 ms, not 100: a cell's movement between rounds is its case's luck, not its
    /// iterations' (thirty iterations a round left the rows' residual at 6.2 %, against 5.8 % with three), and the 0.16 s a
    /// cell saves in every round buys the rounds the verdicts need (docs/methodology.md, "Where a round's time goes").
    /// </summary>
    public const int IterationMilliseconds = 60;

    /// <summary>
    /// One round of the default and short jobs: short, because the run's verdicts come from the spread between rounds (each
    /// round a fresh ordering), not from many iterations in one.
    /// </summary>
    private static Job Round(string id) => new Job(id)
        // Three iterations, not five: a cell's round-to-round noise (7.5 % at five) is mostly not its iterations' (2.5 %),
        // and a Payloads run with three took 19 % less time for 12 % more noise (docs/methodology.md, "Three iterations a round").
        .WithWarmupCount(1)
        .WithIterationCount(3)
        .WithIterationTime(TimeInterval.FromMilliseconds(IterationMilliseconds))
        // No overhead stage: the operations take 60 µs – 100 ms, the empty call's few nanoseconds do not matter.
        .WithEvaluateOverhead(false)
        .WithUnrollFactor(1)
        .WithLaunchCount(1);

    /// <summary>
    /// Each cell's invocations per iteration from its median time per call in the round before (in the first round: in
    /// the warm-up's timing pass), in place of BenchmarkDotNet's pilot stage, for jobs that name an iteration time and no
    /// invocation count. On this noisy machine the pilot wandered for up to a second per cell and now and then settled on
    /// iterations of 5 ms instead of 120. A cell with no time yet (the transport floor in the first round) keeps the pilot.
    /// </summary>
    /// <param name="measures">Which cases this round measures (the open rows of a sequential design); null: all.</param>
    public static BenchmarkRunInfo SizeIterations(BenchmarkRunInfo info, IReadOnlyDictionary<string, double> perCall, Func<BenchmarkCase, bool>? measures = null)
    {
        var cases = info.BenchmarksCases.Where(measures ?? (_ => true)).Select(c =>
        {
            var job = c.Job;
            if (job.Run.HasValue(BenchmarkDotNet.Jobs.RunMode.InvocationCountCharacteristic) || !job.Run.HasValue(BenchmarkDotNet.Jobs.RunMode.IterationTimeCharacteristic) ||
                !perCall.TryGetValue(Cell.Id(c), out var time) || !(time > 0))
            {
                return c;
            }

            var invocations = (int)Math.Clamp(Math.Round(job.Run.IterationTime.Nanoseconds / time), 1, 1_000_000);
            return BenchmarkCase.Create(c.Descriptor, new Job(job.Id, job).WithInvocationCount(invocations).Freeze(), c.Parameters, c.Config);
        });
        return new BenchmarkRunInfo([.. cases], info.Type, info.Config);
    }

    /// <summary>How many rounds a job runs unless --rounds says otherwise (the default job: at most, rows stopping when settled).</summary>
    public static int DefaultRounds(JobKind kind) => kind switch
    {
        JobKind.Default => RoundDesign.Default.Maximum,
        JobKind.Thorough => RoundDesign.Thorough.Maximum,
        // The quick pass: two rounds give each pair an interval (the row's noise has k − 1 degrees of freedom).
        JobKind.Short => 2,
        JobKind.Smoke => 1,
        _ => 3,
    };

    /// <summary>What each cell gets in a round: the job as BenchmarkDotNet's own options (--iterationCount, --warmupCount, --iterationTime, ...) left it.</summary>
    /// <param name="job">The job the rounds run (<see cref="Cli.BenchmarkDotNetArguments.JobOf"/>).</param>
    public static string Describe(JobKind kind, Job job)
    {
        var run = job.Run;
        // A count the job leaves open is BenchmarkDotNet's to choose (its pilot and warm-up stages): "auto".
        var warmUps = run.HasValue(RunMode.WarmupCountCharacteristic) ? $"{run.WarmupCount}" : "auto";
        var measured = run.HasValue(RunMode.IterationCountCharacteristic) ? $"{run.IterationCount}" : "auto";
        var counts = $"{warmUps} warm-up + {measured} measured iterations";
        var each = run.HasValue(RunMode.IterationTimeCharacteristic) ? $" of ~{run.IterationTime.ToMilliseconds():0.#} ms" : "";
        var launches = run.HasValue(RunMode.LaunchCountCharacteristic) && run.LaunchCount > 1 ? $"{run.LaunchCount} launches × " : "";
        return kind switch
        {
            JobKind.Default or JobKind.Thorough or JobKind.Short => $"{counts}{each} per cell",
            JobKind.Medium => $"BenchmarkDotNet's MediumRun preset: {launches}{counts}{each} per cell",
            JobKind.Long => $"BenchmarkDotNet's LongRun preset: {launches}{counts}{each} per cell",
            _ => "every cell once (1 invocation, no statistics)",
        };
    }
}
