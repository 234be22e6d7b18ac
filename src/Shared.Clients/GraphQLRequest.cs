namespace ProtocolBench.Shared.Clients;

/// <summary>The request: the variables left out are not in the dictionary, and a request without any has no <c>variables</c>.</summary>
internal sealed record GraphQLRequest(string Query, Dictionary<string, object>? Variables);
