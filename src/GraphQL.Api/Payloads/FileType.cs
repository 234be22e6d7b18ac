namespace ProtocolBench.GraphQL.Api.Payloads;

public sealed class FileType : ObjectGraphType<FilePayload>
{
    public FileType()
    {
        Name = "File";
        Field(f => f.Name);
        Field(f => f.ContentType);
        Field<NonNullGraphType<Base64StringGraphType>, byte[]>("data").Resolve(context => context.Source.Data);
    }
}
