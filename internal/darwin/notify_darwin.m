// UNUserNotificationCenter, NSAlert and NSWorkspace for wisp-bar. Kept thin:
// every decision is made in Go (package bar); this file shows, withdraws and
// reports clicks. Compiled by cgo as Objective-C with ARC.

#import <Cocoa/Cocoa.h>
#import <UserNotifications/UserNotifications.h>
#include "notify_darwin.h"

// Implemented in Go (//export in notify_darwin.go).
extern void wispNotifyEvent(char *requestID, char *action);
extern void wispNotifyAuthorization(int status);

// Categories: a request's banner with both buttons, or Deny alone (a request
// that does not offer "once"); a notice has none.
static NSString *const kBothButtons = @"sh.wisp.request";
static NSString *const kDenyOnly = @"sh.wisp.request.deny";

static BOOL hasBundle(void) { return NSBundle.mainBundle.bundleIdentifier != nil; }

char *WispBundleID(void) {
    NSString *bid = NSBundle.mainBundle.bundleIdentifier;
    return bid == nil ? NULL : strdup(bid.UTF8String);
}

@interface WispNotifyDelegate : NSObject <UNUserNotificationCenterDelegate>
@end

@implementation WispNotifyDelegate
// Show banners even while wisp-bar counts as the frontmost app.
- (void)userNotificationCenter:(UNUserNotificationCenter *)center
       willPresentNotification:(UNNotification *)notification
         withCompletionHandler:(void (^)(UNNotificationPresentationOptions))completionHandler {
    completionHandler(UNNotificationPresentationOptionBanner | UNNotificationPresentationOptionList |
                      UNNotificationPresentationOptionSound);
}

// Called on the main thread: hand the click to Go, which copies it and
// returns at once, then complete.
- (void)userNotificationCenter:(UNUserNotificationCenter *)center
didReceiveNotificationResponse:(UNNotificationResponse *)response
         withCompletionHandler:(void (^)(void))completionHandler {
    NSString *requestID = response.notification.request.identifier;
    NSString *action = response.actionIdentifier;
    if ([action isEqualToString:UNNotificationDefaultActionIdentifier]) {
        action = @"default";
    } else if ([action isEqualToString:UNNotificationDismissActionIdentifier]) {
        action = @"";
    }
    wispNotifyEvent((char *)requestID.UTF8String, (char *)action.UTF8String);
    completionHandler();
}
@end

static WispNotifyDelegate *gDelegate; // the center holds its delegate weakly

static void reportAuthorization(UNUserNotificationCenter *center) {
    [center getNotificationSettingsWithCompletionHandler:^(UNNotificationSettings *settings) {
        wispNotifyAuthorization((int)settings.authorizationStatus);
    }];
}

static NSSet *categories(void) {
    UNNotificationAction *approve = [UNNotificationAction actionWithIdentifier:@"approve"
                                                                         title:@"Approve once"
                                                                       options:UNNotificationActionOptionNone];
    UNNotificationAction *deny = [UNNotificationAction actionWithIdentifier:@"deny"
                                                                      title:@"Deny"
                                                                    options:UNNotificationActionOptionDestructive];
    UNNotificationCategoryOptions options = UNNotificationCategoryOptionCustomDismissAction;
    UNNotificationCategory *both = [UNNotificationCategory categoryWithIdentifier:kBothButtons
                                                                          actions:@[ approve, deny ]
                                                                intentIdentifiers:@[]
                                                                          options:options];
    UNNotificationCategory *denyOnly = [UNNotificationCategory categoryWithIdentifier:kDenyOnly
                                                                              actions:@[ deny ]
                                                                    intentIdentifiers:@[]
                                                                              options:options];
    return [NSSet setWithObjects:both, denyOnly, nil];
}

// WispNotifyStart sets the delegate and the categories, removes the banners
// of an earlier run (nobody can answer them now), and asks for permission
// only when the person has never been asked. Returns 0 without a bundle.
int WispNotifyStart(void) {
    if (!hasBundle()) {
        return 0;
    }
    UNUserNotificationCenter *center = UNUserNotificationCenter.currentNotificationCenter;
    gDelegate = [WispNotifyDelegate new];
    center.delegate = gDelegate;
    [center setNotificationCategories:categories()];
    [center removeAllDeliveredNotifications];
    [center getNotificationSettingsWithCompletionHandler:^(UNNotificationSettings *settings) {
        if (settings.authorizationStatus != UNAuthorizationStatusNotDetermined) {
            wispNotifyAuthorization((int)settings.authorizationStatus);
            return;
        }
        UNAuthorizationOptions asked = UNAuthorizationOptionAlert | UNAuthorizationOptionSound;
        [center requestAuthorizationWithOptions:asked
                              completionHandler:^(BOOL granted, NSError *error) {
                                  reportAuthorization(center);
                              }];
    }];
    return 1;
}

// buttons: 0 none (a notice), 1 Approve once and Deny, 2 Deny only.
void WispNotifyPost(const char *requestID, const char *title, const char *body, int buttons) {
    if (!hasBundle()) {
        return;
    }
    UNMutableNotificationContent *content = [UNMutableNotificationContent new];
    content.title = [NSString stringWithUTF8String:title];
    content.body = [NSString stringWithUTF8String:body];
    if (buttons == 1) {
        content.categoryIdentifier = kBothButtons;
    } else if (buttons == 2) {
        content.categoryIdentifier = kDenyOnly;
    }
    UNNotificationRequest *request =
        [UNNotificationRequest requestWithIdentifier:[NSString stringWithUTF8String:requestID]
                                             content:content
                                             trigger:nil];
    [UNUserNotificationCenter.currentNotificationCenter addNotificationRequest:request
                                                         withCompletionHandler:^(NSError *error) {
                                                             if (error != nil) {
                                                                 NSLog(@"wisp-bar: banner not shown: %@", error);
                                                             }
                                                         }];
}

void WispNotifyWithdraw(const char *requestID) {
    if (!hasBundle()) {
        return;
    }
    NSArray<NSString *> *ids = @[ [NSString stringWithUTF8String:requestID] ];
    UNUserNotificationCenter *center = UNUserNotificationCenter.currentNotificationCenter;
    [center removeDeliveredNotificationsWithIdentifiers:ids];
    [center removePendingNotificationRequestsWithIdentifiers:ids];
}

// WispNotifyWithdrawAll removes every banner wisp-bar delivered or queued:
// at quit, nobody is left to answer them.
void WispNotifyWithdrawAll(void) {
    if (!hasBundle()) {
        return;
    }
    UNUserNotificationCenter *center = UNUserNotificationCenter.currentNotificationCenter;
    [center removeAllDeliveredNotifications];
    [center removeAllPendingNotificationRequests];
}

// gAlerts holds the alert shown for each request, on the main thread only,
// so that an alert whose request was answered elsewhere can be taken down.
static NSMutableDictionary<NSString *, NSAlert *> *gAlerts;

// WispAlertDismiss ends the alert of requestID, if it shows: its modal loop
// is aborted from a block the main run loop runs in every mode (the modal
// one included), and runModal returns with no button, so nothing is sent.
void WispAlertDismiss(const char *requestID) {
    NSString *rid = [NSString stringWithUTF8String:requestID];
    CFRunLoopPerformBlock(CFRunLoopGetMain(), kCFRunLoopCommonModes, ^{
        NSAlert *alert = gAlerts[rid];
        if (alert != nil && NSApp.modalWindow == alert.window) {
            [NSApp abortModal];
        }
    });
    CFRunLoopWakeUp(CFRunLoopGetMain());
}

// WispAlert shows the whole request in an alert, on the main queue, and
// returns at once; the button pressed comes back through wispNotifyEvent.
// The default button (Return) is Close: nothing is approved by a keystroke.
// It needs no bundle and no permission: it is the fallback when
// notifications are refused.
void WispAlert(const char *requestID, const char *title, const char *text, int approve) {
    NSString *rid = [NSString stringWithUTF8String:requestID];
    NSString *message = [NSString stringWithUTF8String:title];
    NSString *informative = [NSString stringWithUTF8String:text];
    dispatch_async(dispatch_get_main_queue(), ^{
        NSAlert *alert = [NSAlert new];
        alert.alertStyle = NSAlertStyleWarning;
        alert.messageText = message;
        alert.informativeText = informative;
        [alert addButtonWithTitle:@"Close"];
        [alert addButtonWithTitle:@"Deny"];
        if (approve) {
            [alert addButtonWithTitle:@"Approve once"];
        }
        [NSApp activateIgnoringOtherApps:YES];
        if (gAlerts == nil) {
            gAlerts = [NSMutableDictionary new];
        }
        gAlerts[rid] = alert;
        NSModalResponse response = [alert runModal];
        if (gAlerts[rid] == alert) {
            [gAlerts removeObjectForKey:rid];
        }
        const char *action = NULL;
        if (response == NSAlertSecondButtonReturn) {
            action = "deny";
        } else if (response == NSAlertThirdButtonReturn) {
            action = "approve";
        }
        if (action != NULL) {
            wispNotifyEvent((char *)rid.UTF8String, (char *)action);
        }
    });
}

// WispOpenURL opens a file (isFile 1) or a URL with NSWorkspace.
int WispOpenURL(const char *url, int isFile) {
    NSString *text = [NSString stringWithUTF8String:url];
    NSURL *target = isFile ? [NSURL fileURLWithPath:text] : [NSURL URLWithString:text];
    if (target == nil) {
        return 0;
    }
    dispatch_async(dispatch_get_main_queue(), ^{
        [[NSWorkspace sharedWorkspace] openURL:target];
    });
    return 1;
}
