package azure

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

// approveConnection writes a private endpoint connection's state on the
// PLS side: one synchronous PUT of the connection (arm-rules §3.1). ARM
// names a connection <endpoint>.<guid> when the endpoint is created, so the
// plan may not know the name yet: the connection is found by its private
// endpoint among the PLS's connections (a list, a read).
func (w *writer) approveConnection(ctx context.Context, body []byte) ([]byte, error) {
	var want armnetwork.PrivateEndpointConnection
	if err := json.Unmarshal(body, &want); err != nil {
		return nil, fmt.Errorf("%s: decode body: %w", w.op, err)
	}
	if want.Properties == nil || want.Properties.PrivateEndpoint == nil || want.Properties.PrivateEndpoint.ID == nil {
		return nil, fmt.Errorf("%s: the body names no private endpoint", w.op)
	}
	rg, pls := w.id.ResourceGroup, w.id.Names[0]
	client := w.c.network.NewPrivateLinkServicesClient()
	conn, err := w.connectionOf(ctx, client, *want.Properties.PrivateEndpoint.ID)
	if err != nil {
		return nil, err
	}
	conn.Properties.PrivateLinkServiceConnectionState = want.Properties.PrivateLinkServiceConnectionState
	resp, err := client.UpdatePrivateEndpointConnection(w.firstRequest(ctx), rg, pls, *conn.Name, *conn, nil)
	if err != nil {
		return nil, wrapError(w.op, err, false)
	}
	return json.Marshal(resp.PrivateEndpointConnection)
}

// connectionOf finds the connection of the private endpoint peID on the
// step's PLS.
func (w *writer) connectionOf(ctx context.Context, client *armnetwork.PrivateLinkServicesClient, peID string) (*armnetwork.PrivateEndpointConnection, error) {
	pager := client.NewListPrivateEndpointConnectionsPager(w.id.ResourceGroup, w.id.Names[0], nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			return nil, wrapError(w.op+": list the private link service's connections", err, false)
		}
		for _, c := range page.Value {
			if c != nil && c.Name != nil && c.Properties != nil && c.Properties.PrivateEndpoint != nil &&
				c.Properties.PrivateEndpoint.ID != nil && strings.EqualFold(*c.Properties.PrivateEndpoint.ID, peID) {
				return c, nil
			}
		}
	}
	return nil, fmt.Errorf("%s: private link service %s has no connection from private endpoint %s", w.op, w.id.Names[0], peID)
}
