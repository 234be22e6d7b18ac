namespace ProtocolBench.Grpc.Service;

/// <summary>Bound from "Grpc".</summary>
public sealed class GrpcApiOptions
{
    public const string Section = "Grpc";

    /// <summary>The longest a call may run: a call with no deadline, or a later one, is cut off here with DEADLINE_EXCEEDED.</summary>
    public TimeSpan MaxCallDuration { get; set; } = TimeSpan.FromSeconds(60);
}
