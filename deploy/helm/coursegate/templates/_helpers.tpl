{{/*
Shared pieces of the coursegate chart. The server pods and the migrate Job take their security
context, environment and signing-key volume from here, so the Job reads the key exactly as the
server does (the key is mounted 0400; fsGroup makes it readable by the image's user).
*/}}

{{- define "coursegate.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "coursegate.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "coursegate.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: server
{{- end -}}

{{- define "coursegate.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "coursegate.secretName" -}}
{{- required "secrets.existingSecret: name the Secret holding COOKIE_SECRETS, DATABASE_URL, REDIS_URL and the signing key" .Values.secrets.existingSecret -}}
{{- end -}}

{{- define "coursegate.podSecurityContext" -}}
{{- toYaml .Values.podSecurityContext }}
{{- end -}}

{{- define "coursegate.containerSecurityContext" -}}
{{- toYaml .Values.containerSecurityContext }}
{{- end -}}

{{/* The environment of every pod: the config values, the chart's fixed settings, the secrets by reference. */}}
{{- define "coursegate.env" -}}
{{- range $name, $value := .Values.config }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
- name: PORT
  value: {{ .Values.ports.http | quote }}
- name: METRICS_PORT
  value: {{ .Values.ports.metrics | quote }}
- name: SIGNING_KEY_FILE
  value: /run/secrets/coursegate/signing-key.json
- name: DATA_DIR
  value: /data
- name: MIGRATE_ON_START
  value: {{ ternary "false" "true" .Values.migrate.enabled | quote }}
- name: COOKIE_SECRETS
  valueFrom: { secretKeyRef: { name: {{ include "coursegate.secretName" . }}, key: {{ .Values.secrets.keys.cookieSecrets }} } }
- name: DATABASE_URL
  valueFrom: { secretKeyRef: { name: {{ include "coursegate.secretName" . }}, key: {{ .Values.secrets.keys.databaseUrl }} } }
- name: REDIS_URL
  valueFrom: { secretKeyRef: { name: {{ include "coursegate.secretName" . }}, key: {{ .Values.secrets.keys.redisUrl }} } }
{{- end -}}

{{- define "coursegate.signingKeyVolume" -}}
- name: signing-key
  secret:
    secretName: {{ include "coursegate.secretName" . }}
    items:
      - key: {{ .Values.secrets.keys.signingKey }}
        path: signing-key.json
    defaultMode: 0400
{{- end -}}
