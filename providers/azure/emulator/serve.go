package emulator

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"time"
)

// ServeOptions configure Serve.
type ServeOptions struct {
	Options
	Listen   string // host:port; "" means 127.0.0.1:0 (a free port)
	TLS      bool   // serve https with a generated self-signed certificate
	CertFile string // with TLS: write the certificate (PEM) here so clients can trust it
	// Token is the bearer token every request must carry; "" makes a
	// random one.
	Token string
	// Setup, when set, runs on the opened emulator before it listens
	// (seeding the cluster baseline, for instance).
	Setup func(*Emulator) error
	Stats bool // print the request counts (Counters.Summary) on shutdown
	// Ready, when set, is called once the server listens.
	Ready func(Served)
}

// Served is what a client needs to reach a served emulator.
type Served struct {
	Endpoint string
	Token    string
	Cert     *x509.Certificate // with TLS, the certificate to trust
}

// Serve runs the emulator as an ARM endpoint (Guarded) until ctx is
// cancelled, then shuts down and saves the state.
func Serve(ctx context.Context, opts ServeOptions, out io.Writer) (err error) {
	token := opts.Token
	if token == "" {
		token = newToken()
	}
	e, err := Open(opts.Options)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, e.Close()) }()
	if opts.Setup != nil {
		if err := opts.Setup(e); err != nil {
			return err
		}
	}
	addr := opts.Listen
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("emulator listen on %s: %w", addr, err)
	}
	scheme := "http"
	var cert *x509.Certificate
	if opts.TLS {
		var tlsCert tls.Certificate
		tlsCert, cert, err = selfSigned(ln.Addr())
		if err != nil {
			ln.Close()
			return err
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{tlsCert}, MinVersion: tls.VersionTLS12})
		scheme = "https"
		if opts.CertFile != "" {
			pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw})
			if err := os.WriteFile(opts.CertFile, pemBytes, 0o644); err != nil {
				ln.Close()
				return fmt.Errorf("write emulator certificate %s: %w", opts.CertFile, err)
			}
		}
	}
	endpoint := scheme + "://" + ln.Addr().String()
	fmt.Fprintf(out, "ARM emulator listening on %s\n", endpoint)
	if opts.CertFile != "" && opts.TLS {
		fmt.Fprintf(out, "certificate written to %s\n", opts.CertFile)
	}
	if opts.Ready != nil {
		opts.Ready(Served{Endpoint: endpoint, Token: token, Cert: cert})
	}
	// ReadTimeout bounds how long a slow upload holds one of the guard's
	// slots (a 4 MB body takes milliseconds on loopback).
	srv := &http.Server{Handler: e.Guarded(token), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("emulator server: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("emulator shutdown: %w", err)
	}
	fmt.Fprintln(out, "ARM emulator stopped")
	if opts.Stats {
		fmt.Fprintf(out, "emulator %s\n", e.Counters().Summary())
	}
	return nil
}

// newToken is a random bearer token: 32 bytes, hex.
func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// selfSigned makes a certificate for the listening address, localhost and Endpoint's host.
func selfSigned(addr net.Addr) (tls.Certificate, *x509.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("generate emulator key: %w", err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "azsvc ARM emulator"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost", "emulator.azsvc.local"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		IsCA:         true, BasicConstraintsValid: true,
	}
	if tcp, ok := addr.(*net.TCPAddr); ok && !tcp.IP.IsUnspecified() {
		tmpl.IPAddresses = append(tmpl.IPAddresses, tcp.IP)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("create emulator certificate: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("parse emulator certificate: %w", err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}, cert, nil
}
