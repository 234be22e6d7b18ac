using ProtocolBench.GraphQL.Api.Authors;

namespace ProtocolBench.GraphQL.Api.Payloads;

/// <summary>Scenarios I–VII (Bolanowski): clone, intMax, ints, sample, textFile, pdf. No database.</summary>
internal static class PayloadQueries
{
    public static ObjectGraphType AddPayloadQueries(this ObjectGraphType query, PayloadFiles files)
    {
        query.Field<StringGraphType, string>("clone")
            .Answers(Operation.Clone)
            .Description($"text repeated count times. text 1–{Limits.CloneTextMaxLength} chars, count 0–{Limits.CloneCountMax}, at most {Limits.CloneOutputMaxChars} chars in all.")
            .Argument<StringGraphType>("text")
            .Argument<IntGraphType>("count")
            .WithComplexityImpact(Cost.Clone)
            .Resolve(context => PayloadOperations.Clone(context.GetArgument<string?>("text"), context.GetArgument<int?>("count")));

        query.Field<NonNullGraphType<IntGraphType>, int>("intMax")
            .Answers(Operation.GetIntMax)
            .Resolve(_ => PayloadOperations.IntMax);

        query.Field<ListGraphType<NonNullGraphType<IntGraphType>>, int[]>("ints")
            .Answers(Operation.GetInts)
            .Description($"[0, 1, …, count − 1]; count 0–{Limits.IntsCountMax}.")
            .Argument<IntGraphType>("count")
            .WithComplexityImpact(Cost.Ints)
            .Resolve(context => PayloadOperations.Ints(context.GetArgument<int?>("count")));

        query.Field<NonNullGraphType<AuthorType>, AuthorDto>("sample")
            .Answers(Operation.GetSample)
            .Description("A fixed small author with three books, built in memory.")
            .Resolve(_ => PayloadOperations.Sample);

        // The paper's Web API returned files inside JSON as base64; GraphQL has no binary form, so this is the only one.
        query.Field<RecordType<FilePayload>, FilePayload>("textFile")
            .Answers(Operation.GetTextFile)
            .Description("The 455 KiB UTF-8 text file, byte-exact, base64 in JSON.")
            .WithComplexityImpact(Cost.Base64Text(files.IsAvailable ? files.Text.Length : 0), 1)
            .Resolve(_ => files.TextFile);

        query.Field<RecordType<FilePayload>, FilePayload>("pdf")
            .Answers(Operation.GetPdf)
            .Description("The 3.4 MiB PDF, byte-exact, base64 in JSON.")
            .WithComplexityImpact(Cost.Base64Text(files.IsAvailable ? files.Pdf.Length : 0), 1)
            .Resolve(_ => files.PdfFile);

        return query;
    }
}
