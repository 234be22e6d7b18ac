namespace ProtocolBench.Lab.Scenarios;

/// <summary>The request of a scenario: a protocol's client or the operations in process, a marker (the name a create writes) and a cancellation token.</summary>
public delegate Task<object> ScenarioRequest(ILibraryOperations client, string marker, CancellationToken cancellationToken);
