package azure

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// approveConnection writes a private endpoint connection's state on the
// PLS side: one synchronous PUT of the connection (arm-rules §3.1). ARM
// names a connection <endpoint>.<guid> when the endpoint is created, so the
// plan may not know the name yet: the connection is found by its private
// endpoint among the PLS's connections (a list, a read).
func (w *writer) approveConnection(ctx context.Context, body []byte) (map[string]any, error) {
	var want struct {
		Properties struct {
			PrivateEndpoint struct {
				ID string `json:"id"`
			} `json:"privateEndpoint"`
			State map[string]any `json:"privateLinkServiceConnectionState"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(body, &want); err != nil {
		return nil, fmt.Errorf("%s: decode body: %w", w.op, err)
	}
	peID := want.Properties.PrivateEndpoint.ID
	if peID == "" {
		return nil, fmt.Errorf("%s: the body names no private endpoint", w.op)
	}
	pls, _ := w.id.ParentID()
	conns := resourcePath(pls) + "/privateEndpointConnections"
	conn, err := w.connectionOf(ctx, conns, peID)
	if err != nil {
		return nil, err
	}
	obj(conn["properties"])["privateLinkServiceConnectionState"] = want.Properties.State
	out, err := json.Marshal(conn)
	if err != nil {
		return nil, fmt.Errorf("%s: encode the connection: %w", w.op, err)
	}
	target := w.c.url(conns+"/"+url.PathEscape(str(conn["name"])), networkAPIVersion)
	return w.syncPut(ctx, target, out, http.StatusOK)
}

// connectionOf finds the connection of the private endpoint peID in the
// collection conns of the step's PLS.
func (w *writer) connectionOf(ctx context.Context, conns, peID string) (map[string]any, error) {
	var found map[string]any
	err := w.c.list(ctx, conns, networkAPIVersion, func(m map[string]any) error {
		pe := str(obj(obj(m["properties"])["privateEndpoint"])["id"])
		if found == nil && str(m["name"]) != "" && strings.EqualFold(pe, peID) {
			found = m
		}
		return nil
	})
	if err != nil {
		return nil, wrapError(w.op+": list the private link service's connections", err, false)
	}
	if found == nil || obj(found["properties"]) == nil {
		return nil, fmt.Errorf("%s: private link service %s has no connection from private endpoint %s", w.op, w.id.Names[0], peID)
	}
	return found, nil
}
