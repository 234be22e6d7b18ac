using System.Reflection;
using ProtocolBench.GraphQL.Api.Payloads;
using ProtocolBench.Shared.Domain.Authors;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// A domain record whose fields GraphQL gives as they are: graphql-dotnet registers its properties, named and typed as the
/// record declares them, bytes as <see cref="Base64StringGraphType"/> (graphql-dotnet would make them a list of Byte).
/// Named for the record: <see cref="BookDto"/> is Book, <see cref="FilePayload"/> is File.
/// </summary>
public sealed class RecordType<TRecord> : AutoRegisteringObjectGraphType<TRecord>
{
    public RecordType() => Name = typeof(TRecord).Name switch
    {
        nameof(BookDto) => "Book",
        nameof(FilePayload) => "File",
        var other => throw new InvalidOperationException($"{other} has no GraphQL name; give it one in {nameof(RecordType<>)}."),
    };

    protected override TypeInformation GetTypeInformation(MemberInfo memberInfo) => base.GetTypeInformation(memberInfo) switch
    {
        { IsList: true } bytes when bytes.Type == typeof(byte) =>
            new(memberInfo, isInputType: false, typeof(byte[]), bytes.ListIsNullable, isList: false, listIsNullable: false, typeof(Base64StringGraphType)),
        var field => field,
    };
}
