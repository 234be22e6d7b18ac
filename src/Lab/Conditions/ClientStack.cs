namespace ProtocolBench.Lab.Conditions;

/// <summary>
/// --client: whose client makes the benchmark's calls. This project's .NET client (the default), or a paper's kind of
/// client in a process of its own (tools/stacks/&lt;stack&gt;/): Bolanowski et al.'s JMeter (its HTTP sampler on
/// HttpClient 4, a Java sampler over grpc-java), Kamiński et al.'s Python (requests over HTTP/1.1, grpcio), and Node.js's
/// (undici, @grpc/grpc-js, @microsoft/signalr). A stack's answers are checked as the .NET client's are (<see cref="PortableCall"/>).
/// </summary>
public enum ClientStack
{
    Dotnet,
    Jmeter,
    Python,
    Node,
}
