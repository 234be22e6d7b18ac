using ProtocolBench.Rest.Api;

var builder = ServiceDefaults.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddLibraryDb();
builder.AddPayloadFiles();
builder.AddRestApi();

var app = builder.Build();
app.UseExceptionHandler();
app.UseResponseCompressionWhenEnabled();
app.UseMalformedRequestAnswers();
app.UseRequestTimeouts();
app.UseResponseBudget();
app.UseQueryStringRules();
app.UseStatusCodePages();
app.MapRestApi();
app.MapServiceHealth();
return await app.RunServiceAsync("Rest.Api");
