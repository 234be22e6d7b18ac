using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.Grpc.Service.Services;

/// <summary>Śliwa &amp; Pańczyk's authors/books operations over gRPC; AuthorOperations does the work on the scoped DbContext.</summary>
public sealed class AuthorsService(LibraryDbContext db) : Authors.AuthorsBase
{
    public const string ServiceName = "protocolbench.v1.Authors";

    [Operation(nameof(Operation.SearchAuthors))]
    public override async Task<AuthorList> Search(SearchAuthorsRequest request, ServerCallContext context) =>
        (await db.SearchAsync(request.Phrase, request.HasLimit ? request.Limit : null, context.CancellationToken)).ToMessage();

    [Operation(nameof(Operation.ListAuthors))]
    public override async Task<AuthorList> List(ListAuthorsRequest request, ServerCallContext context) =>
        (await db.ListAsync(request.HasSkip ? request.Skip : null, request.HasTake ? request.Take : null, context.CancellationToken))
        .ToMessage();

    [Operation(nameof(Operation.GetAuthor))]
    public override async Task<V1.Author> Get(GetAuthorRequest request, ServerCallContext context) =>
        (await db.GetAsync(request.Id, context.CancellationToken)).ToMessage();

    [Operation(nameof(Operation.CreateAuthor))]
    public override async Task<V1.Author> Create(CreateAuthorRequest request, ServerCallContext context) =>
        (await db.CreateAsync(new AuthorInput(request.Name, request.Country), context.CancellationToken)).ToMessage();

    [Operation(nameof(Operation.UpdateAuthor))]
    public override async Task<V1.Author> Update(UpdateAuthorRequest request, ServerCallContext context) =>
        (await db.UpdateAsync(request.Id, new AuthorInput(request.Name, request.Country), context.CancellationToken)).ToMessage();

    [Operation(nameof(Operation.DeleteAuthor))]
    public override async Task<DeleteAuthorReply> Delete(DeleteAuthorRequest request, ServerCallContext context)
    {
        await db.DeleteAsync(request.Id, context.CancellationToken);
        return new DeleteAuthorReply();
    }
}
