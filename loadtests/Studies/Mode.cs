namespace ProtocolBench.LoadTests.Studies;

/// <summary>What the load command runs: the virtual users, the paced stream, both, the open-loop rate sweep, or the driver check.</summary>
public enum Mode
{
    Users,
    Paced,
    All,
    DriverCheck,
    Rate,
}
