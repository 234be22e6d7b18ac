using ProtocolBench.GraphQL.Api.Authors;
using ProtocolBench.GraphQL.Api.Payloads;
using ProtocolBench.GraphQL.Api.Shapes;
using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.GraphQL.Api;

/// <summary>One Query and one Mutation root, assembled from the feature folders. Exported to schema.graphql.</summary>
public sealed class LibrarySchema : Schema
{
    public LibrarySchema(IServiceProvider services, IDbContextFactory<LibraryDbContext> factory, PayloadFiles files)
        : base(services)
    {
        // Replaces the built-in String by name, before any field asks for it (graphql-dotnet's way to override a scalar).
        RegisterType(new SegmentedStringGraphType());
        // The records that records hold, by the types that give them (RecordType's fields).
        RegisterTypeMapping(typeof(BookDto), typeof(RecordType<BookDto>));
        RegisterTypeMapping(typeof(ShapeDto), typeof(ShapeType));
        Query = new ObjectGraphType { Name = "Query" }
            .AddPayloadQueries(files)
            .AddAuthorQueries(factory)
            .AddShapeQueries();
        Mutation = new ObjectGraphType { Name = "Mutation" }
            .AddAuthorMutations(factory);
    }
}
