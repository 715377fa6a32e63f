// The C face of notify_darwin.m; plain C, so cgo's Go side can include it.
#include <stdlib.h>

char *WispBundleID(void);
int WispNotifyStart(int ask);
char *WispNotifyCategories(double timeout);
char *WispNotifyPost(const char *requestID, const char *title, const char *body, int buttons, double timeout);
void WispNotifyWithdraw(const char *requestID);
void WispNotifyWithdrawAll(void);
void WispAlertDismiss(const char *requestID);
void WispAlert(const char *requestID, const char *title, const char *text, int approve);
int WispOpenURL(const char *url, int isFile);
