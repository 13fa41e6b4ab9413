package kube

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// ErrorKind says what went wrong talking to the cluster.
type ErrorKind string

const (
	Unreachable ErrorKind = "unreachable" // no connection, DNS, timeout
	Untrusted   ErrorKind = "untrusted"   // TLS: the server's certificate
	Credentials ErrorKind = "credentials" // 401, or the credential plugin failed
	Forbidden   ErrorKind = "forbidden"   // 403: RBAC
	Other       ErrorKind = "other"
)

// Error is a failed request to the cluster, explained: which verb on which
// resource, where, and what to do about it.
type Error struct {
	Kind      ErrorKind
	Verb      string // list, get, create, update
	Resource  string // services, nodes, endpointslices, leases, services/status
	Group     string // "" for the core group
	Namespace string // "" for cluster scope
	Where     string // the context and server
	Err       error
}

func (e *Error) Error() string {
	scope := "at the cluster scope"
	if e.Namespace != "" {
		scope = fmt.Sprintf("in namespace %q", e.Namespace)
	}
	switch e.Kind {
	case Unreachable:
		return fmt.Sprintf("cannot reach the Kubernetes API server of %s: %v", e.Where, e.Err)
	case Untrusted:
		return fmt.Sprintf("cannot trust the Kubernetes API server of %s: %v; check certificate-authority in the kubeconfig", e.Where, e.Err)
	case Credentials:
		return fmt.Sprintf("the Kubernetes API server of %s rejected the credentials (missing, invalid or expired): %v; "+
			"log in again (for AKS: az aks get-credentials, or kubelogin) and retry", e.Where, e.Err)
	case Forbidden:
		return fmt.Sprintf("RBAC: not allowed to %s %s (API group %q) %s on %s: %v; "+
			"`azsvc help rbac` shows the ClusterRole azsvc needs", e.Verb, e.Resource, e.Group, scope, e.Where, e.Err)
	}
	return fmt.Sprintf("%s %s %s on %s: %v", e.Verb, e.Resource, scope, e.Where, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// explain classifies err from a request with verb on resource.
func (c *Client) explain(err error, verb, resource, group, ns string) error {
	if err == nil {
		return nil
	}
	return &Error{Kind: kindOf(err), Verb: verb, Resource: resource, Group: group, Namespace: ns, Where: c.where, Err: err}
}

func kindOf(err error) ErrorKind {
	var (
		netErr   net.Error
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
	)
	switch {
	case apierrors.IsUnauthorized(err):
		return Credentials
	case apierrors.IsForbidden(err):
		return Forbidden
	case errors.As(err, &unknown), errors.As(err, &hostname), errors.As(err, &invalid):
		return Untrusted
	case strings.Contains(err.Error(), "getting credentials"):
		// client-go's exec credential plugin (kubelogin) failed: the
		// login expired or was never made.
		return Credentials
	case errors.As(err, &netErr):
		return Unreachable
	}
	return Other
}
