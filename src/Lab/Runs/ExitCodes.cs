namespace ProtocolBench.Lab.Runs;

/// <summary>What both commands return.</summary>
public static class ExitCodes
{
    public const int Ok = 0;

    /// <summary>A cell failed, a check failed (tally, nothing lost) or a report is missing.</summary>
    public const int CheckFailed = 1;

    /// <summary>Bad options.</summary>
    public const int BadUsage = 2;

    /// <summary>A service would not start, or one died during the run.</summary>
    public const int ServiceFailed = 3;

    public const int CtrlC = 130;

    public const int SigTerm = 143;
}
