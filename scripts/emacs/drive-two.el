;;; drive-two.el --- two sessions of one mm-acp at once, through xenodium/acp.el  -*- lexical-binding: t -*-
;; Two sessions of one mm-acp prompted at once; prints each agent_message_chunk with its time and session.
;; Usage: TWO_CWD_A=dir TWO_CWD_B=dir emacs --batch -L <acp.el checkout> -l acp -l scripts/emacs/drive-two.el
(require 'acp)
(require 'map)
(defvar two-done 0)
(defvar two-start (float-time))
(defvar two-client
  (acp-make-client :command "node"
                   :command-params (list (or (getenv "DRIVE_BIN") (expand-file-name "apps/acp-stdio/bin/mm-acp.js")) "--log-level" "quiet")))
(acp-subscribe-to-notifications
 :client two-client
 :on-notification
 (lambda (n)
   (let* ((sid (map-nested-elt n '(params sessionId)))
          (u (map-nested-elt n '(params update))))
     (when (equal (map-elt u 'sessionUpdate) "agent_message_chunk")
       (princ (format "%5.2fs %s %s\n" (- (float-time) two-start) (substring sid -8) (map-nested-elt u '(content text))))))))
(defun two-prompt (sid text)
  (acp-send-request :client two-client
                    :request (acp-make-session-prompt-request :session-id sid :prompt (vector `((type . "text") (text . ,text))))
                    :on-success (lambda (resp) (princ (format "%5.2fs %s [done] %s\n" (- (float-time) two-start) (substring sid -8) (map-elt resp 'stopReason))) (setq two-done (1+ two-done)))
                    :on-failure (lambda (e) (princ (format "[error] %S\n" e)) (setq two-done (1+ two-done)))))
(defun two-session (cwd then)
  (acp-send-request :client two-client
                    :request (acp-make-session-new-request :cwd cwd)
                    :on-success (lambda (resp) (funcall then (map-elt resp 'sessionId)))
                    :on-failure (lambda (e) (princ (format "[error] %S\n" e)) (setq two-done 2))))
(acp-send-request
 :client two-client
 :request (acp-make-initialize-request :protocol-version 1)
 :on-success
 (lambda (_)
   (two-session (getenv "TWO_CWD_A")
                (lambda (a)
                  (two-session (getenv "TWO_CWD_B")
                               (lambda (b)
                                 (setq two-start (float-time))
                                 (two-prompt a "first thread")
                                 (two-prompt b "second thread")))))))
(let ((deadline (+ (float-time) 60)))
  (while (and (< two-done 2) (< (float-time) deadline))
    (accept-process-output nil 0.05)))
(acp-shutdown :client two-client)
