using ProtocolBench.GraphQL.Api;

if (SchemaExport.Requested(args) is { } schemaPath)
{
    return await SchemaExport.WriteAsync(schemaPath);
}

var builder = ServiceDefaults.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddLibraryDb();
builder.AddPayloadFiles();
builder.AddGraphQLApi();

var app = builder.Build();
app.UseExceptionHandler();
app.UseResponseCompressionWhenEnabled();
app.UseMalformedRequestAnswers();
app.UseRequestTimeouts();
app.UseResponseBudget();
app.MapGraphQLApi();
app.MapServiceHealth();
return await app.RunServiceAsync("GraphQL.Api");
