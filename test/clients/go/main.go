// One Go SDK client (github.com/modelcontextprotocol/go-sdk's mcp.Client) held open for a test,
// driven over stdin/stdout one JSON line at a time, so the TypeScript test runs the same scenarios
// through it as through the other clients (test/clients/go-client.ts; the Python clients'
// test/clients/python/client_shim.py speaks the same lines).
//
//	go-client -url URL
//
// It prints {"ready":true} once connected. Then each line {"id":n,"op":"call","name":...,
// "arguments":{...}} is answered with {"id":n,"observation":{...}}: what the call returned (a
// result: its text, isError, and the pending handle from its _meta), or the error it returned (its
// type, the JSON-RPC code when the server sent one, its message); {"op":"list"} answers the tool
// names; {"op":"close"} ends it. Ops run concurrently. The peers are the ones every client under
// test has: a form is accepted with {"name":"Ada"} unless its message starts with "[decline]",
// sampling answers "A small change.", and the one root is file:///src/checkout.
//
// Everything else is the SDK's default: its HTTP client (so its default User-Agent, by which the
// service knows its retry limits), its multi round-trip loop (whose limits it does not expose:
// 10 results, 3 state-only ones), no request timeout.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	pendingKey    = "io.durable-mcp/pending"
	declinePrefix = "[decline]"
	sampled       = "A small change."
)

// request is one line the test writes.
type request struct {
	ID        int            `json:"id"`
	Op        string         `json:"op"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// observation is what one call did, as test/clients/observation.ts reads it.
type observation struct {
	Kind          string `json:"kind"`
	Text          string `json:"text,omitempty"`
	IsError       *bool  `json:"isError,omitempty"`
	PendingHandle string `json:"pendingHandle,omitempty"`
	Name          string `json:"name,omitempty"`
	Code          *int64 `json:"code,omitempty"`
	Message       string `json:"message,omitempty"`
}

// output writes one JSON line at a time: ops answer from their own goroutines.
type output struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (o *output) emit(message any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	_ = o.enc.Encode(message)
}

func resultOf(result *mcp.CallToolResult) observation {
	var texts []string
	for _, content := range result.Content {
		if text, ok := content.(*mcp.TextContent); ok {
			texts = append(texts, text.Text)
		}
	}
	isError := result.IsError
	out := observation{Kind: "result", Text: strings.Join(texts, " "), IsError: &isError}
	if pending, ok := result.Meta[pendingKey].(map[string]any); ok {
		if handle, ok := pending["handle"].(string); ok {
			out.PendingHandle = handle
		}
	}
	return out
}

// failure names an error as its caller would test for it: jsonrpc.Error (with its code) when the
// server answered with a JSON-RPC error, else the error's own Go type.
func failure(err error) observation {
	message := err.Error()
	if len(message) > 500 {
		message = message[:500]
	}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		code := wire.Code
		return observation{Kind: "error", Name: "jsonrpc.Error", Code: &code, Message: message}
	}
	return observation{Kind: "error", Name: strings.TrimPrefix(fmt.Sprintf("%T", err), "*"), Message: message}
}

func newClient() *mcp.Client {
	client := mcp.NewClient(&mcp.Implementation{Name: "compatibility", Version: "1.0.0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if strings.HasPrefix(req.Params.Message, declinePrefix) {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{
				Role:       "assistant",
				Content:    &mcp.TextContent{Text: sampled},
				Model:      "test-model",
				StopReason: "endTurn",
			}, nil
		},
	})
	client.AddRoots(&mcp.Root{URI: "file:///src/checkout", Name: "checkout"})
	return client
}

func main() {
	url := flag.String("url", "", "the service's MCP endpoint")
	flag.Parse()
	out := &output{enc: json.NewEncoder(os.Stdout)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	session, err := newClient().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: *url}, nil)
	if err != nil {
		out.emit(map[string]any{"error": "connect: " + err.Error()})
		os.Exit(1)
	}
	defer session.Close()
	out.emit(map[string]any{"ready": true})

	run := func(req request) {
		if req.Op == "list" {
			var names []string
			for tool, err := range session.Tools(ctx, nil) {
				if err != nil {
					out.emit(map[string]any{"id": req.ID, "error": err.Error()})
					return
				}
				names = append(names, tool.Name)
			}
			out.emit(map[string]any{"id": req.ID, "tools": names})
			return
		}
		arguments := req.Arguments
		if arguments == nil {
			arguments = map[string]any{}
		}
		result, err := session.CallTool(ctx, &mcp.CallToolParams{Name: req.Name, Arguments: arguments})
		if err != nil {
			out.emit(map[string]any{"id": req.ID, "observation": failure(err)})
			return
		}
		out.emit(map[string]any{"id": req.ID, "observation": resultOf(result)})
	}

	lines := bufio.NewScanner(os.Stdin)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	for lines.Scan() {
		var req request
		if err := json.Unmarshal(lines.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "unreadable line:", err)
			continue
		}
		if req.Op == "close" {
			return
		}
		go run(req)
	}
}
