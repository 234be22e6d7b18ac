using ProtocolBench.Shared.Domain.Payloads;
using ProtocolBench.Shared.Domain.Shapes;
using static ProtocolBench.Shared.Domain.Operations.Parameter;

namespace ProtocolBench.Shared.Domain.Operations;

/// <summary>
/// One operation of the library, everything about it in one place: its name, its parameters, its answer's type, the
/// domain call behind it, the most it can answer (<see cref="ResponseSize"/>, known before it runs) and its address on
/// each protocol that offers it. Each service binds its endpoints to these through its own idiom
/// (<see cref="OperationAttribute"/> on a REST action, a gRPC method or a hub method; field metadata in GraphQL) and
/// refuses to start when an endpoint is bound to none or its address is not the one written here; its response
/// budget reserves what the bound operation says. The clients call an operation by these addresses alone, so adding
/// one touches the domain, this list, one translator per protocol (and the .proto) and the catalogue.
/// </summary>
public abstract class Operation
{
    private readonly Func<OperationArguments, PayloadFiles, long> _mostAnswered;

    private protected Operation(string name, Parameter[] parameters, string[] sizedBy, Func<OperationArguments, PayloadFiles, long> mostAnswered, bool isStreamed)
    {
        Name = name;
        Parameters = parameters;
        SizedBy = sizedBy;
        _mostAnswered = mostAnswered;
        IsStreamed = isStreamed;
    }

    /// <summary>Its name, which is also the hub method's.</summary>
    public string Name { get; }

    public IReadOnlyList<Parameter> Parameters { get; }

    /// <summary>What the size of its answer depends on, by the name every protocol gives the argument.</summary>
    public IReadOnlyList<string> SizedBy { get; }

    public abstract Type ResultType { get; }

    /// <summary>
    /// An answer sent as chunks the caller waits on (StreamPdf's 64 KiB chunks): a reader that stops holds one chunk,
    /// so nothing is reserved for it.
    /// </summary>
    public bool IsStreamed { get; }

    /// <summary>
    /// An answer that is the same for every caller (a file): a service that writes it from one shared copy, a piece at a
    /// time as its reader takes it, reserves nothing for it (a reader holds no copy of its own).
    /// </summary>
    public bool IsShared { get; init; }

    /// <summary>REST's verb and route, e.g. <c>GET api/authors/{id}</c>: a parameter not in the route is in the query (GET, DELETE) or the JSON body (POST, PUT).</summary>
    public string? Rest { get; init; }

    /// <summary>gRPC's service and method in protocolbench.proto, e.g. <c>Authors/Search</c>: each parameter is the request's field of its name.</summary>
    public string? Grpc { get; init; }

    /// <summary>GraphQL's root field and its type, e.g. <c>query searchAuthors</c>: each parameter is the field's argument of its name.</summary>
    public string? GraphQL { get; init; }

    /// <summary>Whether the hub has a method of this name, which takes the parameters in their order.</summary>
    public bool OnHub { get; init; }

    /// <summary>The most its answer can carry, in bytes (<see cref="ResponseSize"/>), from the call's arguments alone.</summary>
    public long MostAnswered(OperationArguments arguments, PayloadFiles files) => _mostAnswered(arguments, files);

    public override string ToString() => Parameters.Count == 0 ? Name : $"{Name}({string.Join(", ", Parameters.Select(p => p.Name))})";

    public static readonly Operation<string> Clone = new(
        nameof(Clone), [Text("text"), Int("count")], (_, a, _) => Task.FromResult(PayloadOperations.Clone(a.Text("text"), a.Int("count"))),
        sizedBy: ["text", "count"], mostAnswered: (a, _) => ResponseSize.CloneHeld(a.Text("text"), a.Int("count")))
    {
        Rest = "GET api/payloads/clone", Grpc = "Payloads/Clone", GraphQL = "query clone", OnHub = true,
    };

    public static readonly Operation<int> GetIntMax = new(nameof(GetIntMax), [], (_, _, _) => Task.FromResult(PayloadOperations.IntMax))
    {
        Rest = "GET api/payloads/int-max", Grpc = "Payloads/GetIntMax", GraphQL = "query intMax", OnHub = true,
    };

    public static readonly Operation<int[]> GetInts = new(
        nameof(GetInts), [Int("count")], (_, a, _) => Task.FromResult(PayloadOperations.Ints(a.Int("count"))),
        sizedBy: ["count"], mostAnswered: (a, _) => ResponseSize.Ints(a.Int("count")))
    {
        Rest = "GET api/payloads/ints", Grpc = "Payloads/GetInts", GraphQL = "query ints", OnHub = true,
    };

    public static readonly Operation<AuthorDto> GetSample = new(nameof(GetSample), [], (_, _, _) => Task.FromResult(PayloadOperations.Sample))
    {
        Rest = "GET api/payloads/sample", Grpc = "Payloads/GetSample", GraphQL = "query sample", OnHub = true,
    };

    /// <summary>The text file in the protocol's structured form (base64 in JSON, a bytes field), the most any protocol sends being JSON's base64.</summary>
    public static readonly Operation<FilePayload> GetTextFile = new(
        nameof(GetTextFile), [], (s, _, _) => Task.FromResult(s.Files.TextFile),
        mostAnswered: (_, files) => files.IsAvailable ? ResponseSize.File(files.Text.Length) : 0)
    {
        Rest = "GET api/payloads/text-file", Grpc = "Payloads/GetTextFile", GraphQL = "query textFile", OnHub = true,
        IsShared = true,
    };

    public static readonly Operation<FilePayload> GetPdf = new(
        nameof(GetPdf), [], (s, _, _) => Task.FromResult(s.Files.PdfFile),
        mostAnswered: (_, files) => files.IsAvailable ? ResponseSize.File(files.Pdf.Length) : 0)
    {
        Rest = "GET api/payloads/pdf", Grpc = "Payloads/GetPdf", GraphQL = "query pdf", OnHub = true,
        IsShared = true,
    };

    /// <summary>The text file's bytes as they are (REST's /raw).</summary>
    public static readonly Operation<byte[]> GetTextFileRaw = new(
        nameof(GetTextFileRaw), [], (s, _, _) => Task.FromResult(s.Files.Text),
        mostAnswered: (_, files) => files.IsAvailable ? files.Text.Length : 0)
    {
        Rest = "GET api/payloads/text-file/raw",
        IsShared = true,
    };

    public static readonly Operation<byte[]> GetPdfRaw = new(
        nameof(GetPdfRaw), [], (s, _, _) => Task.FromResult(s.Files.Pdf),
        mostAnswered: (_, files) => files.IsAvailable ? files.Pdf.Length : 0)
    {
        Rest = "GET api/payloads/pdf/raw",
        IsShared = true,
    };

    /// <summary>The PDF as a stream of 64 KiB chunks, the first announcing the whole length (gRPC, the hub).</summary>
    public static readonly Operation<byte[]> StreamPdf = new(nameof(StreamPdf), [], (s, _, _) => Task.FromResult(s.Files.Pdf), isStreamed: true)
    {
        Grpc = "Payloads/StreamPdf", OnHub = true,
    };

    public static readonly Operation<IReadOnlyList<AuthorDto>> SearchAuthors = new(
        nameof(SearchAuthors), [Text("phrase"), Int("limit")],
        (s, a, ct) => s.InDatabaseAsync(db => db.SearchAsync(a.Text("phrase"), a.Int("limit"), ct), ct),
        sizedBy: ["limit"], mostAnswered: (a, _) => ResponseSize.Search(a.Int("limit")))
    {
        Rest = "GET api/authors/search", Grpc = "Authors/Search", GraphQL = "query searchAuthors", OnHub = true,
    };

    public static readonly Operation<IReadOnlyList<AuthorDto>> ListAuthors = new(
        nameof(ListAuthors), [Int("skip"), Int("take")],
        (s, a, ct) => s.InDatabaseAsync(db => db.ListAsync(a.Int("skip"), a.Int("take"), ct), ct),
        sizedBy: ["take"], mostAnswered: (a, _) => ResponseSize.List(a.Int("take")))
    {
        Rest = "GET api/authors", Grpc = "Authors/List", GraphQL = "query authors", OnHub = true,
    };

    public static readonly Operation<AuthorDto> GetAuthor = new(
        nameof(GetAuthor), [RequiredInt("id")], (s, a, ct) => s.InDatabaseAsync(db => db.GetAsync(a.Int("id") ?? 0, ct), ct))
    {
        Rest = "GET api/authors/{id}", Grpc = "Authors/Get", GraphQL = "query author", OnHub = true,
    };

    public static readonly Operation<AuthorDto> CreateAuthor = new(
        nameof(CreateAuthor), [Text("name"), Text("country")],
        (s, a, ct) => s.InDatabaseAsync(db => db.CreateAsync(new AuthorInput(a.Text("name"), a.Text("country")), ct), ct))
    {
        Rest = "POST api/authors", Grpc = "Authors/Create", GraphQL = "mutation createAuthor", OnHub = true,
    };

    public static readonly Operation<AuthorDto> UpdateAuthor = new(
        nameof(UpdateAuthor), [RequiredInt("id"), Text("name"), Text("country")],
        (s, a, ct) => s.InDatabaseAsync(db => db.UpdateAsync(a.Int("id") ?? 0, new AuthorInput(a.Text("name"), a.Text("country")), ct), ct))
    {
        Rest = "PUT api/authors/{id}", Grpc = "Authors/Update", GraphQL = "mutation updateAuthor", OnHub = true,
    };

    /// <summary>Answers true once deleted (REST's 204, gRPC's empty reply and the hub's completion read as true).</summary>
    public static readonly Operation<bool> DeleteAuthor = new(
        nameof(DeleteAuthor), [RequiredInt("id")],
        (s, a, ct) => s.InDatabaseAsync(async db =>
        {
            await db.DeleteAsync(a.Int("id") ?? 0, ct);
            return true;
        }, ct))
    {
        Rest = "DELETE api/authors/{id}", Grpc = "Authors/Delete", GraphQL = "mutation deleteAuthor", OnHub = true,
    };

    public static readonly Operation<ShapeDto> GetShape = new(
        nameof(GetShape), [Text("kind"), RequiredInt("id")], (_, a, _) => Task.FromResult(ShapeOperations.Get(a.Text("kind"), a.Int("id"))),
        sizedBy: ["kind"], mostAnswered: (a, _) => ResponseSize.Shapes(a.Text("kind"), 1))
    {
        Rest = "GET api/shapes/{kind}/{id}", Grpc = "Shapes/Get", GraphQL = "query shape", OnHub = true,
    };

    public static readonly Operation<IReadOnlyList<ShapeDto>> ListShapes = new(
        nameof(ListShapes), [Text("kind"), Int("count")], (_, a, _) => Task.FromResult(ShapeOperations.List(a.Text("kind"), a.Int("count"))),
        sizedBy: ["kind", "count"], mostAnswered: (a, _) => ResponseSize.Shapes(a.Text("kind"), a.Int("count")))
    {
        Rest = "GET api/shapes/{kind}", Grpc = "Shapes/List", GraphQL = "query shapes", OnHub = true,
    };

    /// <summary>Every operation: each is offered by at least one service, and a service binds every endpoint to one of these.</summary>
    public static IReadOnlyList<Operation> All { get; } =
    [
        Clone, GetIntMax, GetInts, GetSample, GetTextFile, GetPdf, GetTextFileRaw, GetPdfRaw, StreamPdf,
        SearchAuthors, ListAuthors, GetAuthor, CreateAuthor, UpdateAuthor, DeleteAuthor, GetShape, ListShapes,
    ];

    public static Operation? Find(string name) => All.FirstOrDefault(o => o.Name == name);
}
