namespace ProtocolBench.Lab.Scenarios;

/// <summary>How a request ended; every issued request ends in exactly one.</summary>
public enum OutcomeKind
{
    Ok,
    Failed,
    TimedOut,
    Cancelled,
}
