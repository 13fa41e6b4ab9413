package azure

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/azsvc/azsvc/plan/cluster"
)

// publicClouds maps the canonical cloud names (cluster.CloudName) to the
// SDK's configurations.
var publicClouds = map[string]cloud.Configuration{
	cluster.CloudPublic:       cloud.AzurePublic,
	cluster.CloudChina:        cloud.AzureChina,
	cluster.CloudUSGovernment: cloud.AzureGovernment,
}

// metadataAPIVersion is the version CCM asks an Azure Stack Hub style
// endpoint for its metadata (pkg/azclient cloud.go AzureCloudConfigFromURL).
const metadataAPIVersion = "2019-05-01"

// resolveCloud returns the cloud configuration of o: a public cloud by
// name, or the one resourceManagerEndpoint's metadata describes.
func resolveCloud(ctx context.Context, o AzureOptions) (cloud.Configuration, error) {
	if o.ResourceManagerEndpoint == "" {
		name := o.Cloud
		if name == "" {
			name = cluster.CloudPublic
		}
		c, ok := publicClouds[name]
		if !ok {
			return cloud.Configuration{}, fmt.Errorf("unknown cloud %q", name)
		}
		return c, nil
	}
	return cloudFromMetadata(ctx, o.ResourceManagerEndpoint, o.Transport)
}

// endpointMetadata is one entry of /metadata/endpoints. Azure Stack Hub
// answers with one object, public ARM with a list of clouds.
type endpointMetadata struct {
	Name            string `json:"name"`
	ResourceManager string `json:"resourceManager"`
	Authentication  struct {
		LoginEndpoint string   `json:"loginEndpoint"`
		Audiences     []string `json:"audiences"`
	} `json:"authentication"`
}

func cloudFromMetadata(ctx context.Context, endpoint string, tr policy.Transporter) (cloud.Configuration, error) {
	endpoint = strings.TrimSuffix(endpoint, "/")
	if err := checkEndpoint(endpoint); err != nil {
		return cloud.Configuration{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	u := endpoint + "/metadata/endpoints?api-version=" + metadataAPIVersion
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return cloud.Configuration{}, err
	}
	if tr == nil {
		tr = http.DefaultClient
	}
	resp, err := tr.Do(req)
	if err != nil {
		return cloud.Configuration{}, fmt.Errorf("read the metadata of %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return cloud.Configuration{}, fmt.Errorf("read the metadata of %s: %s %v", endpoint, resp.Status, err)
	}
	md, err := pickMetadata(body, endpoint)
	if err != nil {
		return cloud.Configuration{}, fmt.Errorf("metadata of %s: %w", endpoint, err)
	}
	return cloud.Configuration{
		ActiveDirectoryAuthorityHost: md.Authentication.LoginEndpoint,
		Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
			cloud.ResourceManager: {Endpoint: endpoint, Audience: md.Authentication.Audiences[0]},
		},
	}, nil
}

// pickMetadata takes the entry for endpoint from either answer shape.
func pickMetadata(body []byte, endpoint string) (endpointMetadata, error) {
	var list []endpointMetadata
	if err := json.Unmarshal(body, &list); err != nil {
		var one endpointMetadata
		if err := json.Unmarshal(body, &one); err != nil {
			return endpointMetadata{}, fmt.Errorf("not metadata JSON: %w", err)
		}
		list = []endpointMetadata{one}
	}
	if len(list) == 0 {
		return endpointMetadata{}, fmt.Errorf("no cloud described")
	}
	md := list[0]
	for _, m := range list {
		if strings.EqualFold(strings.TrimSuffix(m.ResourceManager, "/"), endpoint) {
			md = m
		}
	}
	switch {
	case md.Authentication.LoginEndpoint == "":
		return endpointMetadata{}, fmt.Errorf("no authentication.loginEndpoint")
	case len(md.Authentication.Audiences) == 0:
		return endpointMetadata{}, fmt.Errorf("no authentication.audiences")
	}
	return md, nil
}

// checkEndpoint refuses to send a token in clear text off this machine,
// and endpoints whose user info, query or fragment would leak or break
// (cluster.CheckEndpoint).
func checkEndpoint(endpoint string) error {
	if err := cluster.CheckEndpoint(endpoint); err != nil {
		return fmt.Errorf("endpoint %w", err)
	}
	return nil
}

// plainHTTP reports whether endpoint is plain http (to loopback, as
// checkEndpoint ensures): the SDK's bearer policy must be told to allow it.
func plainHTTP(endpoint string) bool { return strings.HasPrefix(endpoint, "http://") }
