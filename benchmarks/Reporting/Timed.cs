namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>
/// Something measured in every round: a protocol's cell or a domain floor. Its time is the geometric mean of the rounds'
/// medians, so that the ratio of two times is the (geometric) mean of their rounds' ratios, the ratio the report gives
/// with an interval.
/// </summary>
public abstract record Timed(IReadOnlyList<RoundResult> Rounds)
{
    public bool Success => Rounds.Count > 0 && Rounds.All(r => r.Success);

    public IEnumerable<RoundResult> Measured => Rounds.Where(r => r.Success);

    public double Time => Statistic.GeometricMean(Measured.Select(r => r.Median));

    public double P95 => Statistic.Median(Measured.Select(r => r.P95));

    public long? AllocatedPerOp =>
        Measured.Select(r => r.AllocatedPerOp).OfType<long>().ToList() is { Count: > 0 } allocated ? (long)Statistic.Median(allocated.Select(a => (double)a)) : null;

    /// <summary>The rounds in which the service's cost was read (<see cref="Config.ServerCostDiagnoser"/>).</summary>
    public IEnumerable<CostPerOp> Costs => Measured.Select(r => r.Cost).OfType<CostPerOp>();

    /// <summary>The service's CPU time per operation, µs: the geometric mean of the rounds' (as <see cref="Time"/>); NaN when it was never read.</summary>
    public double ServerCpuMicros => Statistic.GeometricMean(Costs.Select(c => c.ServerCpuMicros));

    /// <summary>The bytes the service allocated per operation: the median of the rounds'.</summary>
    public double ServerAllocatedBytes => Statistic.Median(Costs.Select(c => c.ServerAllocatedBytes));

    /// <summary>This process's CPU time per operation, µs: the geometric mean of the rounds'.</summary>
    public double ClientCpuMicros => Statistic.GeometricMean(Costs.Select(c => c.ClientCpuMicros));

    /// <summary>How far the rounds' medians lie apart: (highest − lowest) ÷ median; NaN with one round.</summary>
    public double RoundSpread
    {
        get
        {
            var medians = Measured.Select(r => r.Median).ToList();
            return medians.Count < 2 ? double.NaN : (medians.Max() - medians.Min()) / Time;
        }
    }

    public double? RoundMedian(int round) => Measured.FirstOrDefault(r => r.Round == round)?.Median;

    /// <summary>The rounds both were measured in, and their medians side by side.</summary>
    public static (double[] A, double[] B) Pairs(Timed a, Timed b)
    {
        var rounds = a.Measured.Select(r => r.Round).Intersect(b.Measured.Select(r => r.Round)).Order().ToList();
        return ([.. rounds.Select(r => a.RoundMedian(r)!.Value)], [.. rounds.Select(r => b.RoundMedian(r)!.Value)]);
    }
}
