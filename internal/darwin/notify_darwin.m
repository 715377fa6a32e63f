// UNUserNotificationCenter, NSAlert and NSWorkspace for wisp-bar. Kept thin:
// every decision is made in Go (package bar); this file shows, withdraws and
// reports clicks. Compiled by cgo as Objective-C with ARC.

#import <Cocoa/Cocoa.h>
#import <UserNotifications/UserNotifications.h>
#include "notify_darwin.h"

// Implemented in Go (//export in notify_darwin.go).
extern void wispNotifyEvent(char *requestID, char *action);
extern void wispNotifyAuthorization(int status, int asked, int granted, char *error);

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

// errorText is an NSError as one line for a person: what it says, and the
// domain and code to search for.
static NSString *errorText(NSError *error) {
    if (error == nil) {
        return nil;
    }
    return [NSString stringWithFormat:@"%@ (%@ %ld)", error.localizedDescription, error.domain, (long)error.code];
}

// reportAuthorization reads the status back and hands it to Go with what
// the request for permission, if one was made, answered: the granted flag
// and the error, which decide with the status whether banners are on.
static void reportAuthorization(UNUserNotificationCenter *center, BOOL asked, BOOL granted, NSError *error) {
    NSString *text = errorText(error);
    [center getNotificationSettingsWithCompletionHandler:^(UNNotificationSettings *settings) {
        wispNotifyAuthorization((int)settings.authorizationStatus, asked ? 1 : 0, granted ? 1 : 0,
                                text == nil ? NULL : (char *)text.UTF8String);
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
// of an earlier run (nobody can answer them now), and, when ask is set,
// asks for permission if the person has never been asked. What macOS
// answers comes back through wispNotifyAuthorization. Returns 0 without a
// bundle.
int WispNotifyStart(int ask) {
    if (!hasBundle()) {
        return 0;
    }
    UNUserNotificationCenter *center = UNUserNotificationCenter.currentNotificationCenter;
    gDelegate = [WispNotifyDelegate new];
    center.delegate = gDelegate;
    [center setNotificationCategories:categories()];
    [center removeAllDeliveredNotifications];
    [center getNotificationSettingsWithCompletionHandler:^(UNNotificationSettings *settings) {
        if (!ask || settings.authorizationStatus != UNAuthorizationStatusNotDetermined) {
            wispNotifyAuthorization((int)settings.authorizationStatus, 0, 0, NULL);
            return;
        }
        UNAuthorizationOptions options = UNAuthorizationOptionAlert | UNAuthorizationOptionSound;
        [center requestAuthorizationWithOptions:options
                              completionHandler:^(BOOL granted, NSError *error) {
                                  reportAuthorization(center, YES, granted, error);
                              }];
    }];
    return 1;
}

// WispNotifyCategories lists the identifiers of the categories the center
// holds, with their actions' identifiers ("sh.wisp.request:approve,deny"),
// one a line, waiting up to timeout seconds; NULL without a bundle or an
// answer. The caller frees it.
char *WispNotifyCategories(double timeout) {
    if (!hasBundle()) {
        return NULL;
    }
    dispatch_semaphore_t done = dispatch_semaphore_create(0);
    __block NSMutableArray<NSString *> *lines = nil;
    [UNUserNotificationCenter.currentNotificationCenter
        getNotificationCategoriesWithCompletionHandler:^(NSSet<UNNotificationCategory *> *held) {
            NSMutableArray<NSString *> *found = [NSMutableArray new];
            for (UNNotificationCategory *category in held) {
                NSMutableArray<NSString *> *actions = [NSMutableArray new];
                for (UNNotificationAction *action in category.actions) {
                    [actions addObject:action.identifier];
                }
                [found addObject:[NSString stringWithFormat:@"%@:%@", category.identifier,
                                                            [actions componentsJoinedByString:@","]]];
            }
            lines = found;
            dispatch_semaphore_signal(done);
        }];
    if (dispatch_semaphore_wait(done, dispatch_time(DISPATCH_TIME_NOW, (int64_t)(timeout * NSEC_PER_SEC))) != 0) {
        return NULL;
    }
    [lines sortUsingSelector:@selector(compare:)];
    return strdup([lines componentsJoinedByString:@"\n"].UTF8String);
}

// WispNotifyPost posts a banner. buttons: 0 none (a notice), 1 Approve once
// and Deny, 2 Deny only. Off the main thread it waits up to timeout seconds
// for the center's answer and returns its error (NULL when the center took
// the banner), so that a banner macOS refuses is not lost without a word;
// the caller frees it. On the main thread, which the answer must not wait
// for, it returns NULL at once.
char *WispNotifyPost(const char *requestID, const char *title, const char *body, int buttons, double timeout) {
    if (!hasBundle()) {
        return strdup("no bundle identifier");
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
    BOOL wait = !NSThread.isMainThread;
    dispatch_semaphore_t done = dispatch_semaphore_create(0);
    __block NSString *failed = nil;
    [UNUserNotificationCenter.currentNotificationCenter addNotificationRequest:request
                                                         withCompletionHandler:^(NSError *error) {
                                                             failed = errorText(error);
                                                             if (failed != nil) {
                                                                 NSLog(@"wisp-bar: banner not shown: %@", failed);
                                                             }
                                                             dispatch_semaphore_signal(done);
                                                         }];
    if (!wait) {
        return NULL;
    }
    if (dispatch_semaphore_wait(done, dispatch_time(DISPATCH_TIME_NOW, (int64_t)(timeout * NSEC_PER_SEC))) != 0) {
        return strdup([NSString stringWithFormat:@"macOS did not take the banner within %.0f seconds", timeout].UTF8String);
    }
    return failed == nil ? NULL : strdup(failed.UTF8String);
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

// activate brings wisp-bar, an accessory app, to the front so that its
// alert is not left behind other windows: NSApp activate from macOS 14,
// where activateIgnoringOtherApps: is deprecated, and that before.
static void activate(void) {
    if (@available(macOS 14.0, *)) {
        [NSApp activate];
    } else {
        [NSApp activateIgnoringOtherApps:YES];
    }
}

// WispAlertWindow is one request's alert, shown without a modal loop: its
// buttons call pressed: here instead of ending one, so the main queue
// runs on while it is up (a second request's alert, open, the menu).
@interface WispAlertWindow : NSObject
@property(nonatomic, copy) NSString *requestID;
@property(nonatomic, strong) NSAlert *alert;
- (void)pressed:(NSButton *)button;
- (void)close;
@end

// gAlerts holds the alert shown for each request, on the main thread only,
// so that an alert whose request was answered elsewhere can be taken down.
static NSMutableDictionary<NSString *, WispAlertWindow *> *gAlerts;

@implementation WispAlertWindow
// The buttons' tags are their actions: 0 Close, 1 Deny, 2 Approve once.
- (void)pressed:(NSButton *)button {
    const char *action = NULL;
    if (button.tag == 1) {
        action = "deny";
    } else if (button.tag == 2) {
        action = "approve";
    }
    NSString *rid = self.requestID;
    [self close];
    if (action != NULL) {
        wispNotifyEvent((char *)rid.UTF8String, (char *)action);
    }
}

// close hides the window now and forgets the alert on the next turn of
// the main queue: it may be running the alert's own button, and the block
// keeps the alert alive until that has returned.
- (void)close {
    [self.alert.window orderOut:nil];
    WispAlertWindow *shown = self;
    NSString *rid = self.requestID;
    dispatch_async(dispatch_get_main_queue(), ^{
        if (gAlerts[rid] == shown) {
            [gAlerts removeObjectForKey:rid];
        }
    });
}
@end

// WispAlertDismiss takes down the alert of requestID, if it shows, without
// reporting a button.
void WispAlertDismiss(const char *requestID) {
    NSString *rid = [NSString stringWithUTF8String:requestID];
    dispatch_async(dispatch_get_main_queue(), ^{
        [gAlerts[rid] close];
    });
}

// WispAlert shows the whole request in an alert, on the main queue, and
// returns at once; the button pressed comes back through wispNotifyEvent.
// The default button (Return) is Close: nothing is approved by a keystroke.
// It needs no bundle and no permission: it is the fallback when
// notifications are refused. A second alert for the same request replaces
// the first.
void WispAlert(const char *requestID, const char *title, const char *text, int approve) {
    NSString *rid = [NSString stringWithUTF8String:requestID];
    NSString *message = [NSString stringWithUTF8String:title];
    NSString *informative = [NSString stringWithUTF8String:text];
    dispatch_async(dispatch_get_main_queue(), ^{
        if (gAlerts == nil) {
            gAlerts = [NSMutableDictionary new];
        }
        [gAlerts[rid] close];
        WispAlertWindow *shown = [WispAlertWindow new];
        shown.requestID = rid;
        shown.alert = [NSAlert new];
        shown.alert.alertStyle = NSAlertStyleWarning;
        shown.alert.messageText = message;
        shown.alert.informativeText = informative;
        NSArray<NSString *> *titles = approve ? @[ @"Close", @"Deny", @"Approve once" ] : @[ @"Close", @"Deny" ];
        for (NSUInteger i = 0; i < titles.count; i++) {
            NSButton *button = [shown.alert addButtonWithTitle:titles[i]];
            button.tag = (NSInteger)i;
            button.target = shown;
            button.action = @selector(pressed:);
        }
        [shown.alert layout];
        NSWindow *window = shown.alert.window;
        window.level = NSFloatingWindowLevel;
        [window center];
        gAlerts[rid] = shown;
        activate();
        [window makeKeyAndOrderFront:nil];
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
