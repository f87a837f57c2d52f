// A 2026-07-28 client built on the official Go SDK, for test/modern/go-client.int.test.ts: it
// connects to the MCP endpoint given as its first argument, calls the tool named by its second
// (no arguments) and prints one JSON line: the result's text, or the error the SDK returned, and
// how many tools/call legs went over HTTP (the SDK's multi round-trip loop retries on its own:
// an ask is answered from this client's roots, a state-only result is retried).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countingTransport counts the POSTs that carry a tools/call: one per leg of the call.
type countingTransport struct {
	legs atomic.Int32
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"method":"tools/call"`)) {
			t.legs.Add(1)
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

type report struct {
	Text  string `json:"text,omitempty"`
	Error string `json:"error,omitempty"`
	Legs  int32  `json:"legs"`
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go-client <mcp endpoint> <tool>")
		os.Exit(2)
	}
	endpoint, tool := os.Args[1], os.Args[2]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	counter := &countingTransport{}
	client := mcp.NewClient(&mcp.Implementation{Name: "go-client", Version: "1.0.0"}, nil)
	client.AddRoots(&mcp.Root{URI: "file:///work/project", Name: "project"})
	transport := &mcp.StreamableClientTransport{
		Endpoint:             endpoint,
		HTTPClient:           &http.Client{Transport: counter},
		DisableStandaloneSSE: true,
	}
	out := report{}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		out.Error = "connect: " + err.Error()
	} else {
		defer session.Close()
		result, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
		if err != nil {
			out.Error = err.Error()
		} else {
			var texts []string
			for _, content := range result.Content {
				if text, ok := content.(*mcp.TextContent); ok {
					texts = append(texts, text.Text)
				}
			}
			out.Text = strings.Join(texts, "\n")
			if result.IsError {
				out.Error = "tool error: " + out.Text
			}
		}
	}
	out.Legs = counter.legs.Load()
	line, _ := json.Marshal(out)
	fmt.Println(string(line))
}
