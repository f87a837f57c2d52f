//! One Rust SDK client (the official `rmcp` crate's client) held open for a test, driven over
//! stdin/stdout one JSON line at a time, so the TypeScript test runs the same scenarios through it
//! as through the other clients (the Go client's go/main.go speaks the same lines).
//!
//!     rust-client --url URL --max-rounds N
//!
//! It prints {"ready":true} once connected. Then each line {"id":n,"op":"call","name":...,
//! "arguments":{...}} is answered with {"id":n,"observation":{...}}: what the call returned (a
//! result: its text, isError, and the pending handle from its _meta), or the error it returned
//! (its `ServiceError` variant, the JSON-RPC code when the server sent one, its message);
//! {"op":"list"} answers the tool names; {"op":"close"} ends it. Ops run concurrently. The peers
//! are the ones every client under test has: a form is accepted with {"name":"Ada"} unless its
//! message starts with "[decline]", sampling answers "A small change.", and the one root is
//! file:///src/checkout.
//!
//! Everything else is the SDK's default: `serve` (its lifecycle: an `initialize` handshake), its
//! HTTP client, no request timeout. The one setting is the cap of `call_tool`'s multi round-trip
//! loop (`call_tool_with_mrtr_max_rounds`; 10 rounds by default), set to the service's
//! pending-result leg as the other clients' caps are.

// Sampling and roots are deprecated by SEP-2577 in this SDK, yet servers still send them: the
// table tests them.
#![allow(deprecated)]

use std::io::Write;
use std::sync::{Arc, Mutex};

use rmcp::{
    ClientHandler, ServiceError, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig,
        CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
        ElicitationAction, ElicitationCapability, ErrorData, FormElicitationCapability,
        Implementation, ListRootsResult, Root, RootsCapabilities, SamplingCapability,
        SamplingMessage,
    },
    service::{RequestContext, RoleClient},
    transport::StreamableHttpClientTransport,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};

const PENDING_KEY: &str = "io.durable-mcp/pending";
const DECLINE_PREFIX: &str = "[decline]";
const SAMPLED: &str = "A small change.";

/// One line the test writes.
#[derive(Deserialize)]
struct Request {
    #[serde(default)]
    id: u64,
    op: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    arguments: Option<Map<String, Value>>,
}

/// What one call did, as test/clients/observation.ts reads it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Observation {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    is_error: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pending_handle: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// Writes one JSON line at a time: ops answer from their own tasks.
#[derive(Clone)]
struct Output(Arc<Mutex<std::io::Stdout>>);

impl Output {
    fn emit(&self, message: Value) {
        let out = self.0.lock().unwrap();
        let mut out = out.lock();
        let _ = writeln!(out, "{message}");
        let _ = out.flush();
    }
}

fn result_of(result: &CallToolResult) -> Observation {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|content| content.as_text().map(|text| text.text.as_str()))
        .collect();
    let pending_handle = result
        .meta
        .as_ref()
        .and_then(|meta| meta.0.get(PENDING_KEY))
        .and_then(|pending| pending.get("handle"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    Observation {
        kind: "result",
        text: Some(texts.join(" ")),
        is_error: Some(result.is_error.unwrap_or(false)),
        pending_handle,
        name: None,
        code: None,
        message: None,
    }
}

/// Names an error as its caller would match on it: the `ServiceError` variant, with the JSON-RPC
/// code when the server answered with an error.
fn failure(error: &ServiceError) -> Observation {
    let mut message = error.to_string();
    if message.len() > 500 {
        let mut end = 500;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
    }
    let (variant, code) = match error {
        ServiceError::McpError(data) => ("McpError", Some(data.code.0)),
        ServiceError::TransportSend(_) => ("TransportSend", None),
        ServiceError::TransportClosed => ("TransportClosed", None),
        ServiceError::UnexpectedResponse => ("UnexpectedResponse", None),
        ServiceError::Cancelled { .. } => ("Cancelled", None),
        ServiceError::Timeout { .. } => ("Timeout", None),
        ServiceError::InputRequiredRoundsExceeded { .. } => ("InputRequiredRoundsExceeded", None),
        _ => ("other", None),
    };
    Observation {
        kind: "error",
        text: None,
        is_error: None,
        pending_handle: None,
        name: Some(format!("ServiceError::{variant}")),
        code,
        message: Some(message),
    }
}

/// The peers every client under test has.
struct Peers;

impl ClientHandler for Peers {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let message = match &request {
            ElicitRequestParams::FormElicitationParams { message, .. } => message.as_str(),
            _ => "",
        };
        if message.starts_with(DECLINE_PREFIX) {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        }
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({ "name": "Ada" })))
    }

    async fn create_message(
        &self,
        _params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        Ok(CreateMessageResult::new(
            SamplingMessage::assistant_text(SAMPLED),
            "test-model".to_owned(),
        )
        .with_stop_reason(CreateMessageResult::STOP_REASON_END_TURN))
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        Ok(ListRootsResult::new(vec![
            Root::new("file:///src/checkout").with_name("checkout"),
        ]))
    }

    /// The capabilities of the peers above: the SDK answers a request it was not told of with an error.
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation =
            Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
        capabilities.sampling = Some(SamplingCapability::default());
        capabilities.roots = Some(RootsCapabilities::default());
        ClientConfig::new(capabilities, Implementation::new("compatibility", "1.0.0"))
    }
}

/// The value after `flag` among the program's arguments.
fn argument(flag: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|arg| arg == flag)
        .and_then(|at| args.get(at + 1).cloned())
}

#[tokio::main]
async fn main() {
    let url = argument("--url").unwrap_or_default();
    let max_rounds: usize = argument("--max-rounds")
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let out = Output(Arc::new(Mutex::new(std::io::stdout())));

    let client = match Peers
        .serve(StreamableHttpClientTransport::from_uri(url))
        .await
    {
        Ok(client) => Arc::new(client),
        Err(error) => {
            out.emit(json!({ "error": format!("connect: {error}") }));
            std::process::exit(1);
        }
    };
    out.emit(json!({ "ready": true }));

    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let request: Request = match serde_json::from_str(&line) {
            Ok(request) => request,
            Err(error) => {
                eprintln!("unreadable line: {error}");
                continue;
            }
        };
        if request.op == "close" {
            break;
        }
        let (client, out) = (client.clone(), out.clone());
        tokio::spawn(async move {
            let id = request.id;
            if request.op == "list" {
                match client.list_all_tools().await {
                    Ok(tools) => {
                        let names: Vec<String> = tools
                            .into_iter()
                            .map(|tool| tool.name.into_owned())
                            .collect();
                        out.emit(json!({ "id": id, "tools": names }));
                    }
                    Err(error) => out.emit(json!({ "id": id, "error": error.to_string() })),
                }
                return;
            }
            let params = CallToolRequestParams::new(request.name)
                .with_arguments(request.arguments.unwrap_or_default());
            let observation = match client
                .call_tool_with_mrtr_max_rounds(params, max_rounds)
                .await
            {
                Ok(result) => result_of(&result),
                Err(error) => failure(&error),
            };
            out.emit(json!({ "id": id, "observation": observation }));
        });
    }
    if let Ok(client) = Arc::try_unwrap(client) {
        let _ = client.cancel().await;
    }
}
