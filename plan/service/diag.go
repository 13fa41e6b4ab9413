package service

// diag builds a diagnostic about the field at path (a field path or an
// annotation path), positioned where that field is written.
func (s *Service) diag(code, path, msg, hint string) Diagnostic {
	return Diagnostic{
		Code:     code,
		Severity: severityOf(code),
		Service:  s.Key(),
		Pos:      s.Pos(path),
		Field:    path,
		Message:  msg,
		Hint:     hint,
	}
}

// annDiag builds a diagnostic about an annotation's key.
func (s *Service) annDiag(code, key, msg, hint string) Diagnostic {
	return s.diag(code, AnnotationPath(key), msg, hint)
}

// annValueDiag builds a diagnostic about an annotation's value.
func (s *Service) annValueDiag(code, key, msg, hint string) Diagnostic {
	d := s.diag(code, AnnotationPath(key)+valueSuffix, msg, hint)
	d.Field = AnnotationPath(key)
	return d
}
