using System.Text.Json.Serialization;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// An object of exactly one property, read for its value whatever the property is called: REST's answer of a scalar
/// (<c>{"value":2147483647}</c>, <c>{"text":"…"}</c>), so that the client needs no type per operation. A null property
/// reads as <see cref="IsNull"/>; a null object is null.
/// </summary>
[JsonConverter(typeof(OnePropertyConverter))]
internal sealed record OneProperty<T>(T? Value, bool IsNull);
