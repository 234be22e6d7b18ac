namespace ProtocolBench.SignalR.Api;

/// <summary>A connection's two pipes, one of them wrapped: what a hub filter puts in place of the transport's.</summary>
internal sealed class DuplexPipe(PipeReader input, PipeWriter output) : IDuplexPipe
{
    public PipeReader Input { get; } = input;

    public PipeWriter Output { get; } = output;
}
