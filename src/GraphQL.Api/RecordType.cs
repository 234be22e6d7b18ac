using System.Reflection;
using ProtocolBench.GraphQL.Api.Payloads;
using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// A domain record whose fields GraphQL gives as they are, as REST's and SignalR's serializers do: graphql-dotnet registers
/// its properties, named and typed as the record declares them, bytes as <see cref="Base64StringGraphType"/> (graphql-dotnet
/// would make them a list of Byte) and the records it holds by the types <see cref="LibrarySchema"/> maps them to. Named for
/// the record without its suffix: Author, Book, Shape, File.
/// </summary>
public class RecordType<TRecord> : AutoRegisteringObjectGraphType<TRecord>
{
    public RecordType() => Name = typeof(TRecord).Name switch
    {
        nameof(AuthorDto) => "Author",
        nameof(BookDto) => "Book",
        nameof(ShapeDto) => "Shape",
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
