namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>What every test reads of the run it is in; imported statically in every file (Integration.Tests.csproj).</summary>
public static class TestRun
{
    /// <summary>Cancelled when the test is stopped (its timeout, or the run's end): every call a test makes is given it.</summary>
    public static CancellationToken Token => TestContext.Current.CancellationToken;
}
